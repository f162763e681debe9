# openge_hide_symbols(<target>): compiles a layer library with hidden visibility, so that the
# shared libraries made of its objects export only what the public headers mark GE_API
# (include/ge/graph/visibility.h), and inline functions not even then. The static libraries the
# tests and tools link are unaffected: visibility matters only across a shared library's edge.
# scripts/check_exports.py checks the result.
function(openge_hide_symbols target)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
