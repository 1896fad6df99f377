// The declaration in include/CFuzzer.h is all this target provides.
