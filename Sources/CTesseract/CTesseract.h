// Tesseract's C API, imported into Swift without C++ interoperability (with it on, capi.h switches to C++ types).
#include <tesseract/capi.h>
