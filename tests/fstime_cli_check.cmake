# fstime_cli_check.cmake - run one of tools/ and check its exit status, its
# stdout and its stderr, so that CTest can assert the command-line contract
# (usage on stdout with exit 0; a refusal as one line on stderr with exit 2).
#
#   cmake -DEXE=path [-DEMULATOR=qemu-i386|-L|/] [-DARGS=a|b] -DRC=n
#         [-DSTDOUT_REGEX=re] -DSTDERR_LINES=n -P fstime_cli_check.cmake
#
# Lists are '|'-separated (a ';' would be split by the command line).  With no
# STDOUT_REGEX, stdout must be empty; STDERR_LINES is the exact number of
# newline-terminated lines on stderr (0: empty).
foreach(var EXE RC STDERR_LINES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "fstime_cli_check: -D${var}= is required")
  endif()
endforeach()
string(REPLACE "|" ";" emulator "${EMULATOR}")
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${emulator} ${EXE} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failed "")
if(NOT rc STREQUAL RC)
  string(APPEND failed "exit status ${rc}, expected ${RC}\n")
endif()
if(DEFINED STDOUT_REGEX AND NOT STDOUT_REGEX STREQUAL "")
  if(NOT out MATCHES "${STDOUT_REGEX}")
    string(APPEND failed "stdout does not match '${STDOUT_REGEX}'\n")
  endif()
elseif(NOT out STREQUAL "")
  string(APPEND failed "stdout not empty\n")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT lines EQUAL STDERR_LINES OR (lines GREATER 0 AND NOT err MATCHES "\n$"))
  string(APPEND failed "stderr has ${lines} line(s), expected ${STDERR_LINES}\n")
endif()
if(failed)
  message(FATAL_ERROR "${EXE} ${args}:\n${failed}--- stdout:\n${out}--- stderr:\n${err}")
endif()
message(STATUS "${EXE} ${args}: exit ${rc}, stderr ${lines} line(s): as expected")
