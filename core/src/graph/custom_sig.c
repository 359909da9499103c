/*
 * custom_sig.c - the signature grammar of custom ops:
 *
 *   signature := ret '(' [ type { ',' type } ] ')'
 *   ret       := 'void' | int-type | 'f32' | 'f64'  (floats: elementwise)
 *   type      := int-type | 'f32' | 'f64' | 'ptr' | dtype '*' | 'void' '*'
 *   int-type  := i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64
 *
 * with the C spellings int (i32), long (i64), size_t (u64), float (f32)
 * and double (f64) accepted as aliases. Blanks are ignored. A typed
 * pointer names the dtype its tensor must have.
 */
#include <stdio.h>
#include <string.h>

#include "graph.h"

static const struct {
    const char *name;
    rlx__ftype type;
} type_names[] = {
    { "void", RLX__FT_VOID }, { "i8", RLX__FT_I8 }, { "i16", RLX__FT_I16 },
    { "i32", RLX__FT_I32 }, { "i64", RLX__FT_I64 }, { "u8", RLX__FT_U8 },
    { "u16", RLX__FT_U16 }, { "u32", RLX__FT_U32 }, { "u64", RLX__FT_U64 },
    { "f32", RLX__FT_F32 }, { "f64", RLX__FT_F64 }, { "ptr", RLX__FT_PTR },
    { "int", RLX__FT_I32 }, { "long", RLX__FT_I64 },
    { "size_t", RLX__FT_U64 }, { "float", RLX__FT_F32 },
    { "double", RLX__FT_F64 },
};

const char *rlx__ftype_name(rlx__ftype t)
{
    for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
        if (type_names[i].type == t)
            return type_names[i].name;
    return "?";
}

int rlx__ftype_is_int(rlx__ftype t)
{
    return t >= RLX__FT_I8 && t <= RLX__FT_U64;
}

int rlx__ftype_is_float(rlx__ftype t)
{
    return t == RLX__FT_F32 || t == RLX__FT_F64;
}

int rlx__ftype_fits(rlx__ftype t, int64_t v)
{
    switch (t) {
    case RLX__FT_I8: return v >= INT8_MIN && v <= INT8_MAX;
    case RLX__FT_I16: return v >= INT16_MIN && v <= INT16_MAX;
    case RLX__FT_I32: return v >= INT32_MIN && v <= INT32_MAX;
    case RLX__FT_I64: return 1;
    case RLX__FT_U8: return v >= 0 && v <= UINT8_MAX;
    case RLX__FT_U16: return v >= 0 && v <= UINT16_MAX;
    case RLX__FT_U32: return v >= 0 && v <= (int64_t)UINT32_MAX;
    case RLX__FT_U64: return v >= 0;
    default: return 0;
    }
}

rlx__ftype rlx__ftype_of_dtype(rlx_dtype dtype)
{
    switch (dtype) {
    case RLX_DTYPE_F32: return RLX__FT_F32;
    case RLX_DTYPE_F64: return RLX__FT_F64;
    case RLX_DTYPE_I32: return RLX__FT_I32;
    case RLX_DTYPE_I64: return RLX__FT_I64;
    case RLX_DTYPE_I8: return RLX__FT_I8;
    case RLX_DTYPE_U8: return RLX__FT_U8;
    default: return RLX__FT_VOID;
    }
}

static void skip_blanks(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
}

/* One type word at *P; *IS_PTR when a '*' follows. 0 when none is known. */
static int read_type(const char **p, rlx__ftype *t, rlx_dtype *pointee,
                     char *word, size_t size)
{
    size_t n = 0;
    skip_blanks(p);
    while ((**p >= 'a' && **p <= 'z') || (**p >= '0' && **p <= '9') ||
           **p == '_')
        n++, (*p)++;
    snprintf(word, size, "%.*s", (int)n, *p - n);
    skip_blanks(p);
    *pointee = RLX_DTYPE_INVALID;
    if (**p == '*') {
        (*p)++;
        skip_blanks(p);
        /* "void*" is untyped; "f32*" (or "float*") names the dtype */
        if (strcmp(word, "void") == 0) {
            *t = RLX__FT_PTR;
            return 1;
        }
        rlx_dtype d;
        const char *dn = strcmp(word, "float") == 0    ? "f32"
                         : strcmp(word, "double") == 0 ? "f64"
                         : strcmp(word, "int") == 0    ? "i32"
                                                       : word;
        if (rlx_dtype_from_name(dn, &d) != RLX_OK) {
            rlx__error_clear();
            return 0;
        }
        *t = RLX__FT_PTR;
        *pointee = d;
        return 1;
    }
    for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
        if (strcmp(type_names[i].name, word) == 0) {
            *t = type_names[i].type;
            return 1;
        }
    return 0;
}

#define KNOWN "i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 ptr, or a typed " \
              "pointer such as f32*"

int rlx__sig_parse(const char *text, rlx__sig *out, char *err, size_t size)
{
    memset(out, 0, sizeof *out);
    char word[64];
    if (!text || !*text) {
        snprintf(err, size, "the signature is empty. Fix: write it as "
                 "\"RET(T1, T2, ...)\", e.g. \"void(i32, f32, f32*)\"");
        return 0;
    }
    const char *p = text;
    rlx_dtype pointee;
    if (!read_type(&p, &out->ret, &pointee, word, sizeof word) ||
        out->ret == RLX__FT_PTR) {
        snprintf(err, size, "signature \"%s\": return type '%s' is not "
                 "allowed. Fix: return void or an integer status (i32, "
                 "i64, u32, ...) that is 0 on success, or for an "
                 "elementwise kernel the element's type", text,
                 word[0] ? word : "(none)");
        return 0;
    }
    if (*p != '(') {
        snprintf(err, size, "signature \"%s\": expected '(' at column %d. "
                 "Fix: write it as \"RET(T1, T2, ...)\"", text,
                 (int)(p - text) + 1);
        return 0;
    }
    p++;
    skip_blanks(&p);
    if (*p == ')') {
        p++;
    } else {
        for (;;) {
            if (out->n == RLX__SIG_MAX_ARGS) {
                snprintf(err, size, "signature \"%s\" has more than %d "
                         "parameters. Fix: wrap the kernel in a function "
                         "taking fewer", text, RLX__SIG_MAX_ARGS);
                return 0;
            }
            const char *at = p;
            rlx__ftype t;
            int ok = read_type(&p, &t, &pointee, word, sizeof word);
            if (ok && t == RLX__FT_VOID && out->n == 0 && *p == ')') {
                p++; /* "void(void)": no parameters, as in C */
                break;
            }
            if (!ok || t == RLX__FT_VOID) {
                snprintf(err, size, "signature \"%s\": parameter %u, "
                         "'%.*s', is not a type this signature grammar "
                         "knows. Fix: use one of " KNOWN, text, out->n + 1,
                         (int)strcspn(at, ",)"), at);
                return 0;
            }
            out->args[out->n] = t;
            out->pointee[out->n] = pointee;
            out->n++;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == ')') {
                p++;
                break;
            }
            snprintf(err, size, "signature \"%s\": expected ',' or ')' at "
                     "column %d. Fix: separate parameter types with commas "
                     "and close the list with ')'", text,
                     (int)(p - text) + 1);
            return 0;
        }
    }
    skip_blanks(&p);
    if (*p) {
        snprintf(err, size, "signature \"%s\": unexpected text after ')' at "
                 "column %d. Fix: end the signature with ')'", text,
                 (int)(p - text) + 1);
        return 0;
    }
    return 1;
}
