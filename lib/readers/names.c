/* Readable kernel names, shared by the ptxas and cubin readers. */
#include "../core/core.h"
#include "names.h"

/*
 * The identifier of a plain Itanium mangling, _Z<length><identifier><parameters>: "_Z6kernelPf" gives
 * "kernel".  Anything else (extern "C" names, nested or templated manglings) is returned whole.  A template
 * instance is _Z<length><identifier>I<arguments>E<parameters> ("_Z4tmplILi3EEvPf", tmpl<3>; the Itanium C++
 * ABI's <unscoped-template-name> <template-args>): no parameter type starts with 'I', so an 'I' right after
 * the identifier marks one, and its identifier alone would name tmpl<3> and tmpl<40> alike.
 */
void gpuocc_short_name(const char *name, size_t length, size_t *start, size_t *short_length)
{
    *start = 0;
    *short_length = length;
    if (length < 3 || name[0] != '_' || name[1] != 'Z' || name[2] < '1' || name[2] > '9')
        return;
    size_t i = 2, id_length = 0;
    while (i < length && name[i] >= '0' && name[i] <= '9') {
        if (id_length > length / 10)
            return; /* longer than the name: not a plain mangling */
        id_length = id_length * 10 + (size_t)(name[i] - '0');
        i++;
    }
    if (id_length > length - i)
        return;
    if (id_length < length - i && name[i + id_length] == 'I')
        return; /* a template instance: the identifier alone would not tell its instances apart */
    *start = i;
    *short_length = id_length;
}
