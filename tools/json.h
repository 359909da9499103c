/*
 * json.h - a small streaming JSON writer for the tool's --json output.
 *
 * Why not printf: every string that reaches the output (paths, plugin
 * messages) comes from outside and must be escaped, and the commas and
 * indentation are easy to get wrong by hand. The writer tracks both.
 */
#ifndef RLX_TOOLS_JSON_H
#define RLX_TOOLS_JSON_H

#include <stdint.h>
#include <stdio.h>

#define CLI_JSON_MAX_DEPTH 32

typedef struct cli_json {
    FILE *out;
    int depth;
    int count[CLI_JSON_MAX_DEPTH]; /* members written at each level */
    int after_key;                 /* a key was written; its value is next */
} cli_json;

void cli_json_init(cli_json *j, FILE *out);
/* Ends the document with a newline. */
void cli_json_finish(cli_json *j);

void cli_json_object_begin(cli_json *j);
void cli_json_object_end(cli_json *j);
void cli_json_array_begin(cli_json *j);
void cli_json_array_end(cli_json *j);
/* Inside an object: the next value belongs to KEY. */
void cli_json_key(cli_json *j, const char *key);

/* A NULL string is written as null. */
void cli_json_string(cli_json *j, const char *s);
void cli_json_int(cli_json *j, int64_t v);
void cli_json_bool(cli_json *j, int v);
void cli_json_null(cli_json *j);
/* A finite double with 9 significant digits; null otherwise. */
void cli_json_double(cli_json *j, double v);

/* Shorthands for "key": value inside an object. */
void cli_json_member_string(cli_json *j, const char *key, const char *s);
void cli_json_member_int(cli_json *j, const char *key, int64_t v);
void cli_json_member_bool(cli_json *j, const char *key, int v);

#endif /* RLX_TOOLS_JSON_H */
