/* lint/engine/config_json.c -- strict JSON parsing with error positions,
 * and where keys and elements are (config_json.h). */
#include "config_json.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"
#include "strmap.h"
#include "text_pos.h"


static const char *expected_for(enum json_tokener_error e)
{
    switch (e) {
    case json_tokener_error_depth:
        return "nesting too deep";
    case json_tokener_error_parse_eof:
    case json_tokener_continue:
        return "unexpected end of file: expected the rest of the JSON object";
    case json_tokener_error_parse_unexpected:
        return "unexpected character: expected a JSON value";
    case json_tokener_error_parse_null:
    case json_tokener_error_parse_boolean:
        return "expected true, false or null";
    case json_tokener_error_parse_number:
        return "expected a number";
    case json_tokener_error_parse_array:
        return "expected ',' or ']' after an array element";
    case json_tokener_error_parse_object_key_name:
        return "expected a quoted property name";
    case json_tokener_error_parse_object_key_sep:
        return "expected ':' after the property name";
    case json_tokener_error_parse_object_value_sep:
        return "expected ',' or '}' after the property value";
    case json_tokener_error_parse_string:
        return "expected a valid string (closing '\"', valid escapes)";
    case json_tokener_error_parse_comment:
        return "comments are not JSON: expected a value (use a \"$comment\" key)";
    case json_tokener_error_parse_utf8_string:
        return "expected valid UTF-8";
    default:
        return "expected valid JSON";
    }
}

json_object *el_json_parse_located(const char *text, size_t len, char **err)
{
    struct json_tokener *tok = json_tokener_new();
    if (!tok)
        el_oom();
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    unsigned line, col;
    if (!obj || e != json_tokener_success) {
        if (obj)
            json_object_put(obj);
        if (e == json_tokener_continue || e == json_tokener_success)
            end = len; /* the text ended inside the object */
        const char *what = len == 0 ? "empty file: expected a JSON object" : expected_for(e);
        size_t prev = end;
        while (prev > 0 && strchr(" \t\r\n", text[prev - 1]))
            prev--;
        if (end < len && (text[end] == '}' || text[end] == ']') && prev > 0 && text[prev - 1] == ',')
            what = "trailing comma: expected another value after ','";
        else if (end < len && e == json_tokener_error_parse_unexpected && end > 0) {
            /* Is everything before the offending character a whole value? */
            char *head = el_xstrndup(text, end);
            json_object *whole = json_tokener_parse(head);
            if (whole) {
                what = "expected the end of the file after the JSON object";
                json_object_put(whole);
            }
            free(head);
        }
        el_text_line_col(text, strlen(text), end, &line, &col);
        *err = el_xasprintf("%u:%u: %s", line, col, what);
        return NULL;
    }
    for (; end < len; end++) {
        if (!strchr(" \t\r\n", text[end])) {
            json_object_put(obj);
            el_text_line_col(text, strlen(text), end, &line, &col);
            *err = el_xasprintf("%u:%u: expected the end of the file after the JSON object", line, col);
            return NULL;
        }
    }
    return obj;
}

/* ---- positions ---------------------------------------------------------- */

/* Paths are the keys joined with this byte (it cannot appear unescaped
 * in a JSON string). */
#define SEP '\x1f'

struct el_json_pos {
    const char *text;
    el_strmap at;          /* joined path -> offset + 1 */
    el_line_index lines;   /* of text */
};

typedef struct indexer {
    el_json_pos *p;
    const char *s;
    size_t i;
    el_buf path;
} indexer;

static void ix_ws(indexer *x)
{
    while (x->s[x->i] && strchr(" \t\r\n", x->s[x->i]))
        x->i++;
}

static void ix_string(indexer *x)
{
    x->i++;
    while (x->s[x->i] && x->s[x->i] != '"') {
        if (x->s[x->i] == '\\' && x->s[x->i + 1])
            x->i++;
        x->i++;
    }
    if (x->s[x->i])
        x->i++;
}

static void ix_record(indexer *x, size_t offset)
{
    el_strmap_put(&x->p->at, x->path.s ? x->path.s : "", (void *)(uintptr_t)(offset + 1));
}

/* Push one path component; returns the length to restore. */
static size_t ix_push(indexer *x, const char *comp, size_t len)
{
    size_t saved = x->path.n;
    if (saved)
        el_buf_putn(&x->path, (const char[]){SEP}, 1);
    el_buf_putn(&x->path, comp, len);
    return saved;
}

static void ix_pop(indexer *x, size_t saved)
{
    x->path.n = saved;
    if (x->path.s)
        x->path.s[saved] = '\0';
}

static void ix_value(indexer *x, int depth)
{
    ix_ws(x);
    char ch = x->s[x->i];
    if (depth > 64) {
        x->i = strlen(x->s);
        return;
    }
    if (ch == '{') {
        x->i++;
        for (;;) {
            ix_ws(x);
            if (x->s[x->i] != '"') {
                if (x->s[x->i])
                    x->i++; /* '}' */
                return;
            }
            size_t kstart = x->i;
            ix_string(x);
            size_t saved = ix_push(x, x->s + kstart + 1, x->i - kstart - 2);
            ix_record(x, kstart);
            ix_ws(x);
            if (x->s[x->i] == ':')
                x->i++;
            ix_value(x, depth + 1);
            ix_pop(x, saved);
            ix_ws(x);
            if (x->s[x->i] == ',') {
                x->i++;
                continue;
            }
            if (x->s[x->i])
                x->i++;
            return;
        }
    }
    if (ch == '[') {
        x->i++;
        for (size_t k = 0;; k++) {
            ix_ws(x);
            if (x->s[x->i] == ']' || !x->s[x->i]) {
                if (x->s[x->i])
                    x->i++;
                return;
            }
            char num[32];
            int len = snprintf(num, sizeof num, "%zu", k);
            size_t saved = ix_push(x, num, (size_t)len);
            ix_record(x, x->i);
            ix_value(x, depth + 1);
            ix_pop(x, saved);
            ix_ws(x);
            if (x->s[x->i] == ',')
                x->i++;
        }
    }
    if (ch == '"') {
        ix_string(x);
        return;
    }
    while (x->s[x->i] && !strchr(",]} \t\r\n", x->s[x->i]))
        x->i++;
}

el_json_pos *el_json_pos_new(const char *text)
{
    el_json_pos *p = el_xcalloc(1, sizeof *p);
    p->text = text;
    indexer x = {p, text, 0, {0}};
    ix_value(&x, 0);
    el_buf_free(&x.path);
    el_line_index_init(&p->lines, text, strlen(text));
    return p;
}

void el_json_pos_free(el_json_pos *p)
{
    if (!p)
        return;
    el_strmap_free(&p->at);
    el_line_index_free(&p->lines);
    free(p);
}

void el_json_pos_find(const el_json_pos *p, const char *const *path, size_t n, unsigned *line,
                      unsigned *col)
{
    size_t off = 0;
    for (size_t k = n; k > 0 && p; k--) {
        el_buf b = {0};
        for (size_t i = 0; i < k; i++) {
            if (i)
                el_buf_putn(&b, (const char[]){SEP}, 1);
            el_buf_puts(&b, path[i]);
        }
        uintptr_t v = (uintptr_t)el_strmap_get(&p->at, b.s ? b.s : "");
        el_buf_free(&b);
        if (v) {
            off = (size_t)v - 1;
            break;
        }
    }
    if (p) {
        el_line_index_line_col(&p->lines, off, line, col);
    } else {
        *line = 1;
        *col = 1;
    }
}
