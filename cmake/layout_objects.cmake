# Code compiled once per layout into one program (bench/, cost/).
#
# y2038_layout_object(<target> <body> <repr> ID_MACRO <macro> SOURCES <src>...
#                     [ID <id>] [DEFINITIONS <def>...] [OPTIONS <opt>...]
#                     [LINK <target>...] [DECLARE <C text>] [ENTRY <C text>])
#   The object library <target>: SOURCES compiled for layout <body>/<repr>
#   with <macro>=<id> (default <body>_<repr>: the sources name their symbols
#   with it), the kernel's code-generation flags (Y2038_KERNEL_CFLAGS) and
#   OPTIONS, linked to layout_<body>_<repr> (its includes and INODE_*
#   definitions) and LINK.  For each source, DECLARE and ENTRY, with @ID@ the
#   id and @SOURCE@ the source's basename, are appended as a line each to the
#   caller's y2038_registry_decls and y2038_registry_entries; its
#   y2038_layout_objects gets $<TARGET_OBJECTS:<target>>.
#
# y2038_write_registry(<file> <C text>...)
#   The generated registry <file>, the texts concatenated, rewritten only when
#   they changed (so that a reconfigure does not rebuild the program).
function(y2038_layout_object target body repr)
  cmake_parse_arguments(PARSE_ARGV 3 L "" "ID;ID_MACRO;DECLARE;ENTRY" "SOURCES;DEFINITIONS;OPTIONS;LINK")
  if(NOT L_ID)
    set(L_ID ${body}_${repr})
  endif()
  add_library(${target} OBJECT ${L_SOURCES})
  target_compile_definitions(${target} PRIVATE ${L_ID_MACRO}=${L_ID} ${L_DEFINITIONS})
  target_compile_options(${target} PRIVATE ${Y2038_KERNEL_CFLAGS} ${L_OPTIONS})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE layout_${body}_${repr} ${L_LINK})
  set(out_DECLARE "${y2038_registry_decls}")
  set(out_ENTRY "${y2038_registry_entries}")
  foreach(src ${L_SOURCES})
    get_filename_component(source ${src} NAME_WE)
    foreach(part DECLARE ENTRY)
      string(REPLACE "@ID@" "${L_ID}" line "${L_${part}}")
      string(REPLACE "@SOURCE@" "${source}" line "${line}")
      string(APPEND out_${part} "${line}\n")
    endforeach()
  endforeach()
  set(y2038_registry_decls "${out_DECLARE}" PARENT_SCOPE)
  set(y2038_registry_entries "${out_ENTRY}" PARENT_SCOPE)
  set(y2038_layout_objects ${y2038_layout_objects} $<TARGET_OBJECTS:${target}> PARENT_SCOPE)
endfunction()

function(y2038_write_registry file)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last})
    string(APPEND text "${ARGV${i}}") # ARGV<i>, not ARGN: the C text holds semicolons
  endforeach()
  file(WRITE ${file}.tmp "${text}")
  configure_file(${file}.tmp ${file} COPYONLY)
endfunction()
