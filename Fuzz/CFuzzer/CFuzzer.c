// Empty: SwiftPM needs one source file in a C target; the header is the point (see CFuzzer.h).
