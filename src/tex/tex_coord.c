/* Coordinate helpers shared by the sampling modules: safe float->integer conversion,
 * rounding, and the array-layer rule (round to nearest even, then clamp). */
#include <math.h>

#include "tex/tex_sampling.h"

float tex_rne(float x)
{
    return rintf(x); /* the default FP environment rounds to nearest even */
}

uint32_t tex_layer_index(float a, uint32_t layers)
{
    if (layers == 0 || !(a == a))
        return 0;
    float r = rintf(a);
    if (r <= 0.0f)
        return 0;
    if (r >= (float)(layers - 1))
        return layers - 1;
    return (uint32_t)r;
}
