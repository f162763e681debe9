// GE_API: marks what the shared libraries export, the user API and the plugin SDK.
#pragma once

/// The layer libraries are compiled with hidden visibility, so the shared libraries export only
/// what is marked GE_API: a class whose members, vtable or static data need a symbol
/// (`class GE_API Foo`), and a namespace-scope function or variable defined in a .cc
/// (`GE_API Status Foo();`). Inline and template code needs no mark and stays hidden.
///
/// The members of a GE_API class are exported with it, nested classes included, so the private
/// `Impl` of a Pimpl class is declared `struct [[gnu::visibility("hidden")]] Impl;`.
///
/// This is the standard-attribute spelling of `__attribute__((visibility("default")))`: GCC takes
/// only this one next to `[[nodiscard]]` in a class head (`class [[nodiscard]] GE_API Status`).
/// scripts/check_exports.py checks that the libraries export every such declaration of
/// include/ge and no symbol of an internal header or a private namespace.
#define GE_API [[gnu::visibility("default")]]
