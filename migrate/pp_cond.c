/* migrate/pp_cond.c -- em_pp_const and em_pp_dead_branch (pp_cond.h):
 * a conditional's tokens evaluated when they are literals and operators
 * only, and the walk of a file's directives that finds the branches no
 * configuration takes. */
#include "pp_cond.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "mem.h"
#include "text_pos.h"

/* ---- tokens ---------------------------------------------------------------- */

enum { T_END, T_NUM, T_OP, T_NAME, T_BAD };

typedef struct tok {
    int kind;
    char op[3];     /* T_OP: the punctuator */
    uint64_t v;     /* T_NUM */
    bool u;         /* T_NUM: unsigned (a u suffix, or too big for intmax_t) */
    bool defined;   /* T_NAME: the word `defined` */
} tok;

typedef struct lexer {
    const char *s;
    size_t n, i;
    tok t;        /* the current token */
    unsigned nest; /* parentheses, unary operators and ?: open now */
} lexer;

/* Deeper nesting is no condition to decide (and would exhaust the stack). */
enum { MAX_NEST = 256 };

/* A pp-number at s[i..e): an integer literal with its value, or false. */
static bool int_literal(const char *s, size_t i, size_t e, uint64_t *v, bool *u)
{
    unsigned base = 10;
    if (e - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    } else if (e - i >= 2 && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
        base = 2;
        i += 2;
    } else if (s[i] == '0') {
        base = 8;
    }
    uint64_t x = 0;
    size_t digits = 0;
    bool over = false;
    for (; i < e; i++, digits++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            break;
        if (d >= base)
            return false; /* 08, 0b2 */
        if (x > (UINT64_MAX - d) / base)
            over = true;
        x = x * base + d;
    }
    if (digits == 0 || over)
        return false;
    /* the suffix: u, l, ll in either order and case, nothing else */
    bool has_u = false;
    int ls = 0;
    while (i < e) {
        if ((s[i] == 'u' || s[i] == 'U') && !has_u) {
            has_u = true;
            i++;
        } else if ((s[i] == 'l' || s[i] == 'L') && ls == 0) {
            ls = 1;
            i += i + 1 < e && s[i + 1] == s[i] ? 2 : 1;
        } else {
            return false; /* 1.0, 1e3, 1_000, 1'000 */
        }
    }
    *v = x;
    /* a decimal literal too big for intmax_t is an error; octal, hex and
     * binary ones become unsigned */
    if (x > (uint64_t)INT64_MAX && base == 10 && !has_u)
        return false;
    *u = has_u || x > (uint64_t)INT64_MAX;
    return true;
}

static void next(lexer *L)
{
    const char *s = L->s;
    size_t n = L->n, i = L->i;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
                     s[i] == '\f' || s[i] == '\v'))
        i++;
    memset(&L->t, 0, sizeof L->t);
    if (i >= n) {
        L->t.kind = T_END;
        L->i = i;
        return;
    }
    char c = s[i];
    if (c >= '0' && c <= '9') {
        /* a pp-number: digits, letters, _, ., and a sign after e/E/p/P */
        size_t e = i + 1;
        while (e < n) {
            char d = s[e];
            if ((d == '+' || d == '-') &&
                (s[e - 1] == 'e' || s[e - 1] == 'E' || s[e - 1] == 'p' || s[e - 1] == 'P'))
                e++;
            else if (el_text_ident_char(d) || d == '.' || d == '\'')
                e++;
            else
                break;
        }
        L->t.kind = int_literal(s, i, e, &L->t.v, &L->t.u) ? T_NUM : T_BAD;
        L->i = e;
        return;
    }
    static const char *const ops[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                      "(", ")", "!", "~", "+", "-", "*", "/", "%",
                                      "<", ">", "&", "^", "|", "?", ":"};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        size_t m = strlen(ops[k]);
        if (i + m <= n && !memcmp(s + i, ops[k], m)) {
            L->t.kind = T_OP;
            memcpy(L->t.op, ops[k], m);
            L->i = i + m;
            return;
        }
    }
    /* a name: only `defined` is evaluated (an operator, whatever is
     * defined); any other (a macro, true) ends the evaluation */
    if (el_text_ident_char(c)) {
        size_t e = i;
        while (e < n && el_text_ident_char(s[e]))
            e++;
        L->t.kind = T_NAME;
        L->t.defined = e - i == 7 && !memcmp(s + i, "defined", 7);
        L->i = e;
        return;
    }
    /* a literal of another kind, a comma */
    L->t.kind = T_BAD;
    L->i = n;
}

static bool is_op(const lexer *L, const char *op)
{
    return L->t.kind == T_OP && !strcmp(L->t.op, op);
}

/* ---- evaluation ------------------------------------------------------------ */

/* A value; unk: `defined NAME`, or one computed from it, whose value
 * depends on the configuration (v then means nothing).  `defined` is an
 * operator the preprocessor evaluates before any macro is expanded, so
 * it is 0 or 1 and cannot change how the condition groups, as a macro
 * can (`#define FOO 1 || 1` makes `FOO && 0` true): `defined(FOO) && 0`
 * is 0 whatever is defined, `0 && FOO` is not decided. */
typedef struct val {
    uint64_t v;
    bool u;
    bool unk;
} val;

static bool expr(lexer *L, val *out);
static bool unary(lexer *L, val *out);

static bool unary_at(lexer *L, val *out)
{
    if (L->t.kind == T_NUM) {
        out->v = L->t.v;
        out->u = L->t.u;
        out->unk = false;
        next(L);
        return true;
    }
    if (L->t.kind == T_NAME && L->t.defined) {
        /* defined NAME, defined ( NAME ) */
        next(L);
        bool paren = is_op(L, "(");
        if (paren)
            next(L);
        if (L->t.kind != T_NAME || L->t.defined)
            return false;
        next(L);
        if (paren) {
            if (!is_op(L, ")"))
                return false;
            next(L);
        }
        out->v = 0;
        out->u = false;
        out->unk = true;
        return true;
    }
    if (is_op(L, "(")) {
        next(L);
        if (!expr(L, out) || !is_op(L, ")"))
            return false;
        next(L);
        return true;
    }
    if (is_op(L, "!") || is_op(L, "~") || is_op(L, "-") || is_op(L, "+")) {
        char op = L->t.op[0];
        next(L);
        val a;
        if (!unary(L, &a))
            return false;
        if (op == '!') {
            out->v = a.v == 0;
            out->u = false;
        } else {
            out->v = op == '~' ? ~a.v : op == '-' ? (uint64_t)0 - a.v : a.v;
            out->u = a.u;
        }
        out->unk = a.unk;
        return true;
    }
    return false;
}

static bool unary(lexer *L, val *out)
{
    if (L->nest >= MAX_NEST)
        return false;
    L->nest++;
    bool ok = unary_at(L, out);
    L->nest--;
    return ok;
}

/* Binary operators by precedence, lowest first. */
static const char *const levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
enum { N_LEVELS = sizeof levels / sizeof *levels };

static bool apply(const char *op, val a, val b, val *r)
{
    bool u = a.u || b.u; /* the usual conversions */
    int64_t sa = (int64_t)a.v, sb = (int64_t)b.v;
    bool logic = !strcmp(op, "||") || !strcmp(op, "&&"),
         compare = !strcmp(op, "==") || !strcmp(op, "!=") ||
                   ((op[0] == '<' || op[0] == '>') && op[1] != op[0]),
         shift = !strcmp(op, "<<") || !strcmp(op, ">>");
    /* the result's type, known or not: a comparison or && || is a signed
     * int (`(0 ? 0u > defined(A) : -1) > 0` is 0), a shift has its left
     * operand's type, the rest the usual conversions */
    r->u = logic || compare ? false : shift ? a.u : u;
    r->unk = false;
    /* what the known path refuses the compiler rejects or leaves
     * undefined whatever is defined: `defined(A) / 0 && 0` is no 0; a
     * divisor that is unknown may be 0 in some configuration */
    if ((op[0] == '/' || op[0] == '%') && (b.unk || b.v == 0))
        return false;
    if (shift && !b.unk && (b.v >= 64 || (!b.u && sb < 0)))
        return false; /* undefined: not a value to decide by */
    if (a.unk || b.unk) {
        /* decided only by a known operand of && that is 0, or of || that
         * is not; anything else on an unknown value is unknown */
        bool is_or = !strcmp(op, "||");
        if (logic) {
            if ((!a.unk && (a.v != 0) == is_or) || (!b.unk && (b.v != 0) == is_or)) {
                r->v = is_or;
                return true;
            }
        }
        r->v = 0;
        r->unk = true;
        return true;
    }
    if (logic) {
        r->v = op[0] == '|' ? (a.v || b.v) : (a.v && b.v);
    } else if (!strcmp(op, "|")) {
        r->v = a.v | b.v;
    } else if (!strcmp(op, "^")) {
        r->v = a.v ^ b.v;
    } else if (!strcmp(op, "&")) {
        r->v = a.v & b.v;
    } else if (!strcmp(op, "==") || !strcmp(op, "!=")) {
        r->v = (a.v == b.v) == (op[0] == '=');
    } else if (op[0] == '<' && op[1] != '<') {
        r->v = u ? (op[1] ? a.v <= b.v : a.v < b.v) : (op[1] ? sa <= sb : sa < sb);
    } else if (op[0] == '>' && op[1] != '>') {
        r->v = u ? (op[1] ? a.v >= b.v : a.v > b.v) : (op[1] ? sa >= sb : sa > sb);
    } else if (shift) { /* past the width: undefined, refused above */
        r->v = op[0] == '<' ? a.v << b.v : a.u ? a.v >> b.v : (uint64_t)(sa >> b.v);
    } else if (!strcmp(op, "+")) {
        r->v = a.v + b.v;
    } else if (!strcmp(op, "-")) {
        r->v = a.v - b.v;
    } else if (!strcmp(op, "*")) {
        r->v = a.v * b.v;
    } else { /* / and % */
        if (!u && sa == INT64_MIN && sb == -1) /* a 0 divisor is refused above */
            return false;
        if (op[0] == '/')
            r->v = u ? a.v / b.v : (uint64_t)(sa / sb);
        else
            r->v = u ? a.v % b.v : (uint64_t)(sa % sb);
    }
    return true;
}

static bool binary(lexer *L, int level, val *out)
{
    if (level == N_LEVELS)
        return unary(L, out);
    if (!binary(L, level + 1, out))
        return false;
    for (;;) {
        const char *op = NULL;
        for (size_t k = 0; k < 4 && levels[level][k]; k++)
            if (is_op(L, levels[level][k]))
                op = levels[level][k];
        if (!op)
            return true;
        next(L);
        val b;
        if (!binary(L, level + 1, &b) || !apply(op, *out, b, out))
            return false;
    }
}

static bool expr(lexer *L, val *out)
{
    if (!binary(L, 0, out))
        return false;
    if (!is_op(L, "?"))
        return true;
    next(L);
    val a, b;
    if (L->nest >= MAX_NEST)
        return false;
    L->nest++;
    bool ok = expr(L, &a) && is_op(L, ":");
    if (ok) {
        next(L);
        ok = expr(L, &b);
    }
    L->nest--;
    if (!ok)
        return false;
    val r = out->v ? a : b;
    if (out->unk) /* either branch: decided when both are the same value */
        r.unk = a.unk || b.unk || a.v != b.v;
    r.u = a.u || b.u;
    *out = r;
    return true;
}

/* The directive's text c[0..n) with comments as blanks and line
 * continuations removed (malloc'd, NUL-terminated). */
static char *clean(const char *c, size_t n)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        if (c[i] == '\\' && i + 1 < n && (c[i + 1] == '\n' || c[i + 1] == '\r')) {
            i += c[i + 1] == '\r' && i + 2 < n && c[i + 2] == '\n' ? 3 : 2;
        } else if (c[i] == '/' && i + 1 < n && (c[i + 1] == '*' || c[i + 1] == '/')) {
            size_t e = el_text_skip_lexeme(c, n, i);
            i = e > i ? e : n;
            o[m++] = ' ';
        } else {
            o[m++] = c[i++];
        }
    }
    o[m] = '\0';
    return o;
}

bool em_pp_const(const char *c, size_t n, long long *value)
{
    char *s = clean(c, n);
    if (!s)
        return false;
    lexer L = {s, strlen(s), 0, {0}, 0};
    next(&L);
    val v;
    bool ok = L.t.kind != T_END && expr(&L, &v) && L.t.kind == T_END && !v.unk;
    free(s);
    if (ok && value)
        *value = (long long)v.v;
    return ok;
}

/* ---- the walk ---------------------------------------------------------------- */

/* One open conditional: whether the branch we are in is never taken, and
 * why (the directive of the branch, and of an earlier branch always
 * taken, as offsets; SIZE_MAX for none). */
typedef struct level {
    bool dead;
    size_t dead_at, taken_at; /* why dead: its own directive, or an earlier one taken */
    size_t taken;             /* an earlier branch of the chain is always taken: its directive */
} level;

/* The end of the directive whose first line ends at le, from i on it: a
 * block comment may carry it over lines (a comment opener in a string or
 * character literal is none; an unclosed quote, as #error's don't, runs
 * to the line's end). */
static size_t directive_end(const char *d, size_t len, size_t i, size_t le)
{
    size_t end = le;
    for (size_t q = i; q < end; q++) {
        if (d[q] == '"' || d[q] == '\'') {
            size_t r = q + 1;
            while (r < end && d[r] != d[q])
                r += d[r] == '\\' ? 2 : 1;
            q = r;
            continue;
        }
        if (d[q] == '/' && q + 1 < len && d[q + 1] == '/')
            break;
        if (d[q] == '/' && q + 1 < len && d[q + 1] == '*') {
            size_t e = el_text_skip_lexeme(d, len, q);
            if (e <= q)
                e = len;
            if (e > end)
                end = el_text_line_end(d, len, e);
            q = e - 1;
        }
    }
    return end;
}

/* The directive at d[i] (its '#') as written, blanks collapsed, comments
 * dropped, cut to cap. */
static void spell(const char *d, size_t len, size_t i, char *out, size_t cap)
{
    size_t le = directive_end(d, len, i, el_text_line_end(d, len, i));
    char *s = clean(d + i, le - i);
    size_t m = 0;
    bool blank = false;
    for (const char *p = s; p && *p && m + 1 < cap; p++) {
        bool b = *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n';
        if (b) {
            blank = m > 0;
            continue;
        }
        if (blank && m + 2 < cap && !(m == 1 && out[0] == '#'))
            out[m++] = ' ';
        blank = false;
        out[m++] = *p;
    }
    out[m] = '\0';
    free(s);
}

enum { DEPTH = 64 };

struct em_pp_walk {
    const char *d;
    size_t len;
    size_t i;     /* the next line start to read */
    size_t site;  /* the last site asked (lines starting before it are read) */
    level lv[DEPTH];
    size_t depth; /* may pass DEPTH: those levels count as taken */
    size_t work;  /* lines read, over all sites */
    el_line_index lines; /* for the lines quoted in why (made on first use) */
    bool have_lines;
};

static unsigned line_of(em_pp_walk *w, size_t off)
{
    if (!w->have_lines)
        el_line_index_init(&w->lines, w->d, w->len);
    w->have_lines = true;
    unsigned line = 1, col = 1;
    el_line_index_line_col(&w->lines, off, &line, &col);
    return line;
}

static void walk_release(em_pp_walk *w)
{
    if (w->have_lines)
        el_line_index_free(&w->lines);
    w->have_lines = false;
}

em_pp_walk *em_pp_walk_new(const char *d, size_t len)
{
    em_pp_walk *w = el_xcalloc(1, sizeof *w);
    w->d = d;
    w->len = len;
    return w;
}

size_t em_pp_walk_work(const em_pp_walk *w) { return w->work; }

void em_pp_walk_free(em_pp_walk *w)
{
    if (w)
        walk_release(w);
    free(w);
}

/* Read the lines of w->d that start before site. */
static void walk_to(em_pp_walk *w, size_t site)
{
    const char *d = w->d;
    size_t len = w->len, i = w->i, depth = w->depth;
    level *lv = w->lv;
    while (i < site && i < len) {
        w->work++;
        /* at a line start */
        size_t j = i;
        while (j < len && (d[j] == ' ' || d[j] == '\t'))
            j++;
        if (j < len && d[j] == '#') {
            size_t hash = j;
            size_t le = el_text_line_end(d, len, j);
            j++;
            while (j < le && (d[j] == ' ' || d[j] == '\t'))
                j++;
            size_t k = j;
            while (k < le && el_text_ident_char(d[k]))
                k++;
            size_t n = k - j;
            size_t end = directive_end(d, len, k, le);
#define KW(w) (n == sizeof(w) - 1 && !memcmp(d + j, w, n))
            long long v = 0;
            bool known = (KW("if") || KW("elif")) && em_pp_const(d + k, end - k, &v);
            if (KW("if") || KW("ifdef") || KW("ifndef")) {
                if (depth < DEPTH) {
                    level *l = &lv[depth];
                    l->dead = known && v == 0;
                    l->dead_at = hash;
                    l->taken_at = SIZE_MAX;
                    l->taken = known && v != 0 ? hash : SIZE_MAX;
                }
                depth++;
            } else if (KW("elif") || KW("elifdef") || KW("elifndef") || KW("else")) {
                if (depth == 0)
                    depth = 1, lv[0] = (level){false, SIZE_MAX, SIZE_MAX, SIZE_MAX};
                if (depth <= DEPTH) {
                    level *l = &lv[depth - 1];
                    l->dead_at = hash;
                    l->taken_at = l->taken;
                    l->dead = l->taken != SIZE_MAX || (known && v == 0);
                    if (l->taken == SIZE_MAX && known && v != 0)
                        l->taken = hash;
                }
            } else if (KW("endif") && depth > 0) {
                depth--;
            }
#undef KW
            i = end;
            if (i < len && d[i] == '\n')
                i++;
            else if (i < len && d[i] == '\r')
                i += i + 1 < len && d[i + 1] == '\n' ? 2 : 1;
            continue;
        }
        /* an ordinary line: to its end, past comments and literals that
         * may span lines */
        while (i < len && d[i] != '\n') {
            if (d[i] == '/' && i + 1 < len && d[i + 1] == '*') {
                size_t e = el_text_skip_lexeme(d, len, i);
                i = e > i ? e : len;
            } else if (d[i] == '/' && i + 1 < len && d[i + 1] == '/') {
                size_t e = el_text_line_end(d, len, i); /* a // comment continues with \ */
                i = e;
            } else if (d[i] == '"' || d[i] == '\'') {
                /* to its closing quote, over escapes and spliced lines */
                size_t q = i + 1;
                while (q < len && d[q] != d[i] && d[q] != '\n')
                    q += d[q] == '\\' && q + 1 < len ? (d[q + 1] == '\r' && q + 2 < len &&
                                                         d[q + 2] == '\n' ? 3 : 2) : 1;
                i = q < len && d[q] == d[i] ? q + 1 : i + 1; /* unclosed: one character */
            } else if (d[i] == '\\' && i + 1 < len && (d[i + 1] == '\n' || d[i + 1] == '\r')) {
                i += d[i + 1] == '\r' && i + 2 < len && d[i + 2] == '\n' ? 3 : 2; /* spliced */
            } else {
                i++;
            }
        }
        if (i < len)
            i++;
    }
    w->i = i;
    w->depth = depth;
}

bool em_pp_walk_dead_at(em_pp_walk *w, size_t site, char *why, size_t cap)
{
    /* the state at site is the one after the lines starting before it:
     * an earlier site than the last starts over */
    if (site < w->site) {
        w->i = 0;
        w->depth = 0;
    }
    w->site = site;
    walk_to(w, site);
    const char *d = w->d;
    size_t len = w->len, depth = w->depth;
    const level *lv = w->lv;
    for (size_t k = 0; k < depth && k < DEPTH; k++) {
        if (!lv[k].dead)
            continue;
        char a[96], b[96];
        spell(d, len, lv[k].dead_at, a, sizeof a);
        if (!strcmp(a, "#if 0"))
            snprintf(why, cap, "#if 0");
        else if (lv[k].taken_at == SIZE_MAX)
            snprintf(why, cap, "`%s` (line %u), false whatever is defined", a,
                     line_of(w, lv[k].dead_at));
        else {
            spell(d, len, lv[k].taken_at, b, sizeof b);
            snprintf(why, cap, "`%s` (line %u) after `%s` (line %u), true whatever is defined", a,
                     line_of(w, lv[k].dead_at), b, line_of(w, lv[k].taken_at));
        }
        return true;
    }
    return false;
}

bool em_pp_dead_branch(const char *d, size_t len, size_t site, char *why, size_t cap)
{
    em_pp_walk w = {.d = d, .len = len};
    bool dead = em_pp_walk_dead_at(&w, site, why, cap);
    walk_release(&w);
    return dead;
}
