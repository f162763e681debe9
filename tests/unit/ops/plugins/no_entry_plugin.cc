// Test shared library that is not a prototype library: it lacks OpenGeRegisterOpProtos.
extern "C" __attribute__((visibility("default"))) int SomethingElse() { return 42; }
