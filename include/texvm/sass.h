/* texvm SASS texture instructions at register level (public API). See docs/sass.md. */
#ifndef TEXVM_SASS_H
#define TEXVM_SASS_H

#include "texvm/tex.h"

#endif
