# Checks that no tracked file is a binary: no executable or object format (ELF, Mach-O, PE, ar archive), no NUL byte
# in the first 8000 bytes (git's own test for binary content) outside the allow-listed binary test data, and no file
# in executable mode that is not a script ("#!"). Build outputs committed by mistake are what it catches.
#
#   cmake -DROOT=<checkout> [-DALLOW=<regex>] -P no_binaries.cmake         the files git tracks under ROOT
#   cmake -DROOT=<dir> -DFILES=<list> [-DALLOW=<regex>] -P no_binaries.cmake  the files a list names
#
# A list has a line per file, "<git mode><TAB><path relative to ROOT>", as `git ls-files -s` gives them. ALLOW is a
# regular expression for paths (relative to ROOT) whose content may hold NUL bytes. When ROOT is not a git checkout
# (a source archive) nothing can be listed: the script says "SKIPPED:" (the ctest test is then skipped) and checks
# nothing.
if(NOT ROOT)
  message(FATAL_ERROR "no_binaries.cmake: ROOT is not set")
endif()
get_filename_component(ROOT "${ROOT}" REALPATH)  # git names the top level with links resolved

if(FILES)
  file(STRINGS "${FILES}" entries)
else()
  find_program(GIT_EXECUTABLE git)
  if(NOT GIT_EXECUTABLE)
    message(STATUS "SKIPPED: git is not installed, so the tracked files of ${ROOT} cannot be listed; nothing checked")
    return()
  endif()
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${ROOT}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE toplevel OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE not_a_checkout ERROR_QUIET)
  if(NOT not_a_checkout)
    get_filename_component(toplevel "${toplevel}" REALPATH)
  endif()
  if(not_a_checkout OR NOT toplevel STREQUAL ROOT)
    message(STATUS "SKIPPED: ${ROOT} is not a git checkout (a source archive?), so its tracked files cannot be "
                   "listed; nothing checked")
    return()
  endif()
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${ROOT}" -c core.quotePath=false ls-files --stage
                  OUTPUT_VARIABLE listing RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "no_binaries.cmake: git ls-files failed in ${ROOT}")
  endif()
  # "<mode> <object> <stage>\t<path>" becomes "<mode>\t<path>".
  string(REGEX REPLACE "([0-7]+) [0-9a-f]+ [0-3]\t" "\\1\t" listing "${listing}")
  string(REPLACE ";" "\\;" listing "${listing}")
  string(REPLACE "\n" ";" entries "${listing}")
endif()

# Leading bytes, in hex, of the formats of programs, object files and libraries.
set(formats "7f454c46:ELF" "feedface:Mach-O" "feedfacf:Mach-O" "cefaedfe:Mach-O" "cffaedfe:Mach-O"
            "cafebabe:Mach-O universal or Java class" "213c617263683e0a:ar archive")

set(violations "")
set(checked 0)
foreach(entry IN LISTS entries)
  if(entry STREQUAL "")
    continue()
  endif()
  string(REGEX MATCH "^([0-7]+)\t(.+)$" parsed "${entry}")
  if(NOT parsed)
    message(FATAL_ERROR "no_binaries.cmake: not \"<mode><TAB><path>\": ${entry}")
  endif()
  set(mode "${CMAKE_MATCH_1}")
  set(path "${CMAKE_MATCH_2}")
  # Symbolic links and submodules have no content here; a tracked file deleted from the work tree has none either.
  if(mode STREQUAL "120000" OR mode STREQUAL "160000" OR NOT EXISTS "${ROOT}/${path}")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  file(READ "${ROOT}/${path}" head LIMIT 8000 HEX)
  set(kind "")
  foreach(format IN LISTS formats)
    string(REGEX REPLACE ":.*" "" magic "${format}")
    string(FIND "${head}" "${magic}" at)
    if(at EQUAL 0)
      string(REGEX REPLACE "^[^:]*:" "" kind "${format}")
      break()
    endif()
  endforeach()
  # PE: "MZ", and at the offset the DOS header's last field gives, "PE\0\0".
  string(LENGTH "${head}" length)
  if(NOT kind AND head MATCHES "^4d5a" AND length GREATER_EQUAL 128)
    string(SUBSTRING "${head}" 120 8 offset)  # bytes 0x3c-0x3f, little-endian
    string(REGEX REPLACE "(..)(..)(..)(..)" "\\4\\3\\2\\1" offset "${offset}")
    math(EXPR pe_at "0x${offset} * 2")
    if(pe_at GREATER_EQUAL 0 AND pe_at LESS length)
      string(SUBSTRING "${head}" ${pe_at} 8 signature)
      if(signature STREQUAL "50450000")
        set(kind "PE")
      endif()
    endif()
  endif()
  if(kind)
    string(APPEND violations "  ${path}: ${kind} file (a build output?)\n")
    continue()
  endif()
  if(NOT (ALLOW AND path MATCHES "${ALLOW}"))
    # A byte is two hex digits: "00 " after spacing the pairs can only be a whole NUL byte.
    string(REGEX REPLACE "(..)" "\\1 " pairs "${head}")
    string(FIND "${pairs}" "00 " nul)
    if(nul GREATER_EQUAL 0)
      string(APPEND violations "  ${path}: binary content (a NUL byte)\n")
      continue()
    endif()
  endif()
  if(mode STREQUAL "100755" AND NOT head MATCHES "^2321")
    string(APPEND violations "  ${path}: executable mode, but not a script starting with #!\n")
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no_binaries.cmake: no file to check under ${ROOT}")
endif()
if(violations)
  message(FATAL_ERROR "tracked files must not be binaries (allowed binary data: ${ALLOW}):\n${violations}")
endif()
message(STATUS "no binaries: ${checked} files checked")
