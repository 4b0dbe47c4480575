"""What a rule returns: the contract claims.py and runtime.py share.

A rule reads the Evidence (claims.py) and returns an Outcome: a key of the
claim row's words, the values those words name, the deciding figures, figures
beside them, the report lines it restates and what it covers; or no key and
why the claim is NOT_MEASURABLE here.
"""
from dataclasses import dataclass, field

NOT_MEASURABLE = "not measurable here"


@dataclass
class Outcome:
    key: str                                    # a key of the claim's words, or None: not measurable
    values: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)  # deciding (<= 3)
    beside: list = field(default_factory=list)   # other bodies, for comparison
    sources: list = field(default_factory=list)  # (path, text the report prints)
    covers: str = ""
    absent: str = ""                             # why not measurable
