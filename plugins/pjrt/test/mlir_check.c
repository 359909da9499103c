/*
 * mlir_check.c - see mlir_check.h. Works line by line on the generic op
 * form the emitter writes:
 *   %5 = "stablehlo.add"(%3, %4) {attrs} : (T3, T4) -> T5
 *   %7 = "stablehlo.reduce"(%5, %6) ({ ... }) {attrs} : (T5, T6) -> T7
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir_check.h"

#define MAX_VALUES 100000
#define MAX_TYPE 96

typedef struct checker {
    char (*type)[MAX_TYPE]; /* "" while undefined */
    int line;
    char *why;
    size_t why_size;
} checker;

static int bad(checker *c, const char *fmt, ...)
{
    int n = snprintf(c->why, c->why_size, "line %d: ", c->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->why_size)
        vsnprintf(c->why + n, c->why_size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int balanced(checker *c, const char *text)
{
    char stack[256];
    int depth = 0;
    int in_str = 0;
    c->line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            c->line++;
        if (*p == '"') {
            in_str = !in_str;
            continue;
        }
        if (in_str)
            continue;
        if (*p == '-' && p[1] == '>') { /* the arrow is no bracket */
            p++;
            continue;
        }
        char close = *p == '(' ? ')' : *p == '{' ? '}' : *p == '[' ? ']'
                   : *p == '<' ? '>' : 0;
        if (close) {
            if (depth == (int)sizeof stack)
                return bad(c, "brackets nested too deep");
            stack[depth++] = close;
        } else if (*p == ')' || *p == '}' || *p == ']' || *p == '>') {
            if (depth == 0 || stack[depth - 1] != *p)
                return bad(c, "unbalanced '%c'", *p);
            depth--;
        }
    }
    if (in_str)
        return bad(c, "unterminated string");
    if (depth)
        return bad(c, "%d bracket(s) left open at the end", depth);
    return 0;
}

/* Parses "%N" at P; returns N or -1. */
static long value_at(const char *p, const char **end)
{
    if (*p != '%' || p[1] < '0' || p[1] > '9')
        return -1;
    char *e;
    long v = strtol(p + 1, &e, 10);
    if (end)
        *end = e;
    return v >= 0 && v < MAX_VALUES ? v : -1;
}

/* Reads a type ("tensor<2x3xf32>") at P into OUT. */
static const char *type_at(const char *p, char *out)
{
    size_t n = 0;
    int depth = 0;
    while (*p && n + 1 < MAX_TYPE) {
        if (*p == '<')
            depth++;
        if (*p == '>')
            depth--;
        if (depth == 0 && (*p == ',' || *p == ')' || *p == '\n' ||
                           *p == ' '))
            break;
        out[n++] = *p++;
        if (depth == 0 && p[-1] == '>')
            break;
    }
    out[n] = '\0';
    return p;
}

static int define(checker *c, long v, const char *type)
{
    if (v < 0)
        return bad(c, "bad value name");
    if (c->type[v][0])
        return bad(c, "%%%ld defined twice", v);
    if (strncmp(type, "tensor<", 7) != 0)
        return bad(c, "%%%ld has no tensor type ('%s')", v, type);
    snprintf(c->type[v], MAX_TYPE, "%s", type);
    return 0;
}

/* "(%a, %b)" at P: the operands; checks each is defined. */
static int operands(checker *c, const char *p, long *ops, int *n,
                    const char **end)
{
    *n = 0;
    if (*p != '(')
        return bad(c, "expected '(' before the operands");
    p++;
    while (*p && *p != ')') {
        const char *e;
        long v = value_at(p, &e);
        if (v < 0)
            return bad(c, "bad operand near '%.20s'", p);
        if (!c->type[v][0])
            return bad(c, "%%%ld used before it is defined", v);
        if (*n == 64)
            return bad(c, "too many operands");
        ops[(*n)++] = v;
        p = e;
        if (*p == ',')
            p += 2;
    }
    *end = p + 1;
    return 0;
}

/* " : (T, T) -> R" at the end of LINE: checks the operand types and
 * returns the result type in RES ("" for "()"). */
static int signature(checker *c, const char *line, const long *ops, int n,
                     char *res)
{
    const char *sig = strstr(line, " : (");
    const char *last = sig;
    while (last && (last = strstr(last + 1, " : (")))
        sig = last;
    if (!sig)
        return bad(c, "no type signature");
    const char *p = sig + 4;
    int k = 0;
    while (*p && *p != ')') {
        char t[MAX_TYPE];
        p = type_at(p, t);
        if (k >= n)
            return bad(c, "more operand types than operands");
        if (strcmp(t, c->type[ops[k]]) != 0)
            return bad(c, "operand %%%ld is %s but typed %s", ops[k],
                       c->type[ops[k]], t);
        k++;
        if (*p == ',')
            p += 2;
    }
    if (k != n)
        return bad(c, "%d operands but %d types", n, k);
    if (strncmp(p, ") -> ", 5) != 0)
        return bad(c, "no result type");
    p += 5;
    if (strncmp(p, "()", 2) == 0) {
        res[0] = '\0';
        return 0;
    }
    type_at(p, res);
    return 0;
}

typedef struct state {
    char results[64][MAX_TYPE];
    int n_results, returned;
    /* an op whose region is open: its operands wait for the "})" line */
    long pend_def, pend_ops[64];
    int pend_n;
} state;

/* Defines the "%N: T" arguments listed after the first '(' of P. */
static int arguments(checker *c, const char *p)
{
    const char *a = strchr(p, '(');
    while (a && *a != ')') {
        a++;
        while (*a == ' ')
            a++;
        const char *e;
        long v = value_at(a, &e);
        if (v < 0)
            break;
        char t[MAX_TYPE];
        a = type_at(e + 2, t);
        if (define(c, v, t) != 0)
            return -1;
    }
    return 0;
}

static int check_line(checker *c, const char *buf, state *st)
{
    const char *p = buf;
    while (*p == ' ')
        p++;
    if (strncmp(p, "func.func", 9) == 0) {
        if (arguments(c, p) != 0)
            return -1;
        const char *r = strstr(p, ") -> (");
        if (!r)
            return bad(c, "func.func without a result list");
        r += 6;
        st->n_results = 0;
        while (*r && *r != ')' && st->n_results < 64) {
            r = type_at(r, st->results[st->n_results++]);
            if (*r == ',')
                r += 2;
        }
        return 0;
    }
    if (strncmp(p, "^bb", 3) == 0)
        return arguments(c, p);
    if (p[0] == '%') {
        const char *e;
        long def = value_at(p, &e);
        if (def < 0 || strncmp(e, " = \"", 4) != 0)
            return bad(c, "expected '%%N = \"op\"'");
        const char *q = strchr(e + 4, '"');
        if (!q)
            return bad(c, "unterminated op name");
        long ops[64];
        int n;
        const char *after;
        if (operands(c, q + 1, ops, &n, &after) != 0)
            return -1;
        if (strncmp(after, " ({", 3) == 0) {
            if (st->pend_def >= 0)
                return bad(c, "nested regions are not expected");
            st->pend_def = def;
            memcpy(st->pend_ops, ops, sizeof ops);
            st->pend_n = n;
            return 0;
        }
        char res[MAX_TYPE];
        if (signature(c, buf, ops, n, res) != 0)
            return -1;
        return define(c, def, res);
    }
    if (strncmp(p, "})", 2) == 0) {
        if (st->pend_def < 0)
            return bad(c, "region closed with no op open");
        char res[MAX_TYPE];
        if (signature(c, buf, st->pend_ops, st->pend_n, res) != 0)
            return -1;
        long def = st->pend_def;
        st->pend_def = -1;
        return define(c, def, res);
    }
    if (strncmp(p, "\"stablehlo.return\"", 18) == 0 ||
        strncmp(p, "\"func.return\"", 13) == 0) {
        long ops[64];
        int n;
        const char *after;
        if (operands(c, strchr(p + 1, '"') + 1, ops, &n, &after) != 0)
            return -1;
        char res[MAX_TYPE];
        if (signature(c, buf, ops, n, res) != 0)
            return -1;
        if (res[0])
            return bad(c, "a return has no results");
        if (p[1] != 'f')
            return 0;
        st->returned = 1;
        if (n != st->n_results)
            return bad(c, "returns %d values; the function has %d results",
                       n, st->n_results);
        for (int i = 0; i < n; i++)
            if (strcmp(c->type[ops[i]], st->results[i]) != 0)
                return bad(c, "result %d is %s, declared %s", i,
                           c->type[ops[i]], st->results[i]);
        return 0;
    }
    if (p[0] && strncmp(p, "module", 6) != 0 && p[0] != '}')
        return bad(c, "unexpected line '%.40s'", p);
    return 0;
}

int mlir_check(const char *text, char *why, size_t why_size)
{
    checker c = { calloc(MAX_VALUES, MAX_TYPE), 0, why, why_size };
    if (!c.type)
        return snprintf(why, why_size, "out of memory"), -1;
    int rc = balanced(&c, text);
    static state st;
    memset(&st, 0, sizeof st);
    st.n_results = -1;
    st.pend_def = -1;
    c.line = 0;
    for (const char *line = text; rc == 0 && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *buf = malloc(len + 1);
        if (!buf) {
            rc = bad(&c, "out of memory");
            break;
        }
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = nl ? nl + 1 : line + len;
        c.line++;
        rc = check_line(&c, buf, &st);
        free(buf);
    }
    if (rc == 0 && st.pend_def >= 0)
        rc = bad(&c, "a region was never closed");
    if (rc == 0 && !st.returned)
        rc = bad(&c, "no func.return");
    free(c.type);
    return rc;
}
