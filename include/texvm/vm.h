/* texvm TGSI execution engine (public API). Owned by the engine issue; see docs/vm.md. */
#ifndef TEXVM_VM_H
#define TEXVM_VM_H

#include "texvm/tgsi.h"
#include "texvm/tex.h"

#endif
