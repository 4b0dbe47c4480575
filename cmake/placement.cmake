# placement.cmake - where one link order puts the timed code (cmake -P).
#
#   cmake -DOBJDUMP=<objdump> -DOBJCOPY=<objcopy> -DORDER=<k> -DOUT_DIR=<dir>
#         -DOBJECTS=<a.o|group=b.o|...> [-DFS_TIME=<fs_time.o> -DCOPIES=<placed|twin|...>]
#         -P placement.cmake
#
# FS_TIME's copies first: <dir>/fstime_<copy>.in.o, "placed" FS_TIME as it
# is, any other with timestamp_truncate() renamed timestamp_truncate_<copy>()
# and every other global made local (the compiler's own __* kept), so that
# each copy is the same instructions at its own address; they join OBJECTS
# as fstime_<copy>.o.
#
# Writes <dir>/<basename of each object>, or <dir>/<group>/<basename> for
# an object given as <group>=<path> (objects of the same name from several
# targets, e.g. accessor.c.o of every layout): the object with every function
# section (.text.<name>, from -ffunction-sections) renamed to
# .text.sorted.y2038.<SHA-1 of "k:object:section">, and, into the first
# object, PADS sections .text.sorted.y2038.<SHA-1 of "k:pad:j"> of 0 to 63
# cache lines each.  GNU ld's default scripts place .text.sorted.* in .text,
# sorted by name, after only the compiler's .text.unlikely/.exit/.startup/.hot: every link order k gets its own random order of the
# timed functions, with random gaps between them, so that where a function
# lands (its cache line in a 4 KiB page, its distance to the other timed
# code: what branch predictors, the op cache and the fetch unit index by) is
# an independent draw per link order rather than the same offsets shifted.
# Functions keep their own alignment (64 bytes: -falign-functions=64), so
# the code inside a function and its cache-line alignment do not change.
# The pads' bytes are never executed.  The keys depend only on k and the
# names, so a rebuild places everything where it was.
cmake_minimum_required(VERSION 3.25)
foreach(var OBJDUMP OBJCOPY ORDER OUT_DIR OBJECTS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "placement.cmake: -D${var}=... is required")
  endif()
endforeach()
set(PADS 32)
set(LINE 64)

string(REPLACE "|" ";" OBJECTS "${OBJECTS}")
file(MAKE_DIRECTORY ${OUT_DIR})
set(renamed_inputs "")
if(DEFINED COPIES)
  string(REPLACE "|" ";" COPIES "${COPIES}")
  foreach(copy IN LISTS COPIES)
    set(copied ${OUT_DIR}/fstime_${copy}.in.o)
    if(copy STREQUAL "placed")
      file(COPY_FILE ${FS_TIME} ${copied})
    else()
      execute_process(COMMAND ${OBJCOPY} --redefine-sym timestamp_truncate=timestamp_truncate_${copy}
        --wildcard --keep-global-symbol=timestamp_truncate_${copy} --keep-global-symbol=__*
        ${FS_TIME} ${copied} RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "placement.cmake: ${OBJCOPY} could not copy ${FS_TIME} as ${copy}")
      endif()
    endif()
    list(APPEND OBJECTS ${copied})
  endforeach()
endif()
set(first TRUE)
foreach(object IN LISTS OBJECTS)
  set(group "")
  if(object MATCHES "^([A-Za-z0-9_]+)=(.+)$")
    set(group ${CMAKE_MATCH_1}/)
    set(object ${CMAKE_MATCH_2})
    file(MAKE_DIRECTORY ${OUT_DIR}/${group})
  endif()
  get_filename_component(name ${object} NAME)
  string(REPLACE ".in.o" ".o" name "${name}")
  set(name ${group}${name})
  execute_process(COMMAND ${OBJDUMP} -h ${object} OUTPUT_VARIABLE heads RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "placement.cmake: ${OBJDUMP} -h ${object} failed")
  endif()
  # "  3 .text.fstime_bench 0000010a  0000000000000000 ..."; not the compiler's
  # own special sections (.text.unlikely/.startup/.hot) nor i386's pc thunks
  # (COMDAT: one copy kept by the linker).
  string(REGEX MATCHALL "\n *[0-9]+ \\.text\\.[^ \n]+" found "\n${heads}")
  set(args "")
  set(renamed 0)
  foreach(line IN LISTS found)
    string(REGEX REPLACE "^\n *[0-9]+ " "" section "${line}")
    if(section MATCHES "^\\.text\\.(unlikely|startup|hot|exit|sorted)([.]|$)|__x86\\.get_pc_thunk")
      continue()
    endif()
    string(SHA1 key "${ORDER}:${name}:${section}")
    list(APPEND args --rename-section ${section}=.text.sorted.y2038.${key})
    math(EXPR renamed "${renamed} + 1")
  endforeach()
  if(renamed EQUAL 0)
    message(FATAL_ERROR "placement.cmake: ${object} has no .text.<function> section "
      "(compile it with -ffunction-sections)")
  endif()
  if(first)
    foreach(j RANGE 1 ${PADS})
      string(SHA1 key "${ORDER}:pad:${j}")
      string(SUBSTRING "${key}" 0 2 byte)
      math(EXPR lines "0x${byte} % 64")
      math(EXPR bytes "${lines} * ${LINE}")
      if(bytes EQUAL 0)
        continue()
      endif()
      string(REPEAT " " ${bytes} fill)
      file(WRITE ${OUT_DIR}/pad${j}.bin "${fill}")
      set(pad .text.sorted.y2038.${key})
      list(APPEND args --add-section ${pad}=${OUT_DIR}/pad${j}.bin
        --set-section-flags ${pad}=alloc,code,readonly,contents
        --set-section-alignment ${pad}=${LINE})
    endforeach()
    set(first FALSE)
  endif()
  execute_process(COMMAND ${OBJCOPY} ${args} ${object} ${OUT_DIR}/${name} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "placement.cmake: ${OBJCOPY} failed on ${object}")
  endif()
endforeach()
