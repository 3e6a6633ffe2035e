/* TGSI program validator (in progress). */
#include "tgsi/tgsi_internal.h"
#include "util/error.h"

tv_status tv_tgsi_validate(const tv_tgsi_program *prog, tv_tgsi_strictness strictness,
                           tv_error *err)
{
    (void)strictness;
    tv_error_clear(err);
    if (!prog)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tgsi_validate: NULL program");
    return TV_OK;
}
