/* ehinfo -- print libeh's backends and the op x backend support matrix.
 *
 *   ehinfo [--format text|markdown|json] [--plugin PATH]...
 *   ehinfo --help | --version
 *
 * Everything printed comes from the library linked in: the backend list
 * (eh_list_backends), the op set (eh_op_count / eh_op_name) and what each
 * backend supports (eh_backend_supports).  For every supported op the
 * matrix also says whose kernel the backend's table points at, by comparing
 * kernel pointers between the tables (<eh/backend_api.h>: ehinfo is a tool
 * that inspects backends, not frontend code):
 *
 *   own          the backend's own kernel
 *   <b> kernel   the same kernel as backend <b> (ref's shared reference
 *                kernel when the backend has nothing faster)
 *   frontend     a META op, answered by the frontend; no backend kernel
 *   missing      no entry in the table
 *
 * A backend with a `defer` hook (lazy) records every op instead of running
 * it; its elementwise ops are marked "fused".  Kernels are found with the
 * lookup API (eh_backend_kernel_whose), so a plugin's table that delegates
 * an op shows whose kernel runs it.
 *
 * Custom ops registered in this process (eh_custom_op_define; --plugin
 * PATH loads a backend plugin first, which may register some) follow the
 * built-in ones in a section of their own, with the same cells plus
 *   per-element  no kernel: the op's per-element function runs
 * (the markdown has the section only when there are custom ops, so the
 * committed matrix does not change).
 *
 * docs/support-matrix.md is this tool's markdown output (make docs), and a
 * test fails when the committed file differs from what ehinfo prints.  The
 * markdown therefore depends only on the library, never on the environment
 * (the current backend, which follows EH_BACKEND, is shown in text and
 * json only).
 *
 * Exit status: 0 success, 1 output could not be written, 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <eh/eh.h>
#include <eh/backend_api.h> // emberlint-ignore EH101 (a tool that inspects backend tables)

enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

enum impl { IMPL_OWN, IMPL_SHARED, IMPL_FRONTEND, IMPL_PER_ELEMENT, IMPL_MISSING };

typedef struct cell {
    enum impl impl;
    const char *owner; /* IMPL_SHARED: the backend whose kernel it is */
    int fused;         /* deferring backend, elementwise op            */
} cell;

typedef struct info {
    int n_backends;
    const char **names;
    const eh_backend **tables; /* NULL if eh_find_backend disagrees */
    int n_ops;    /* built-in ops: ids 0 .. n_ops - 1 */
    int n_custom; /* custom ops: ids n_ops .. n_ops + n_custom - 1 */
    cell *cells;  /* [op * n_backends + backend] */
} info;

static const char *kind_name(eh_op_kind k)
{
    switch (k) {
    case EH_KIND_CREATION: return "creation";
    case EH_KIND_SHAPE: return "shape";
    case EH_KIND_UNARY: return "unary";
    case EH_KIND_BINARY: return "binary";
    case EH_KIND_TERNARY: return "ternary";
    case EH_KIND_REDUCTION: return "reduction";
    case EH_KIND_LINALG: return "linalg";
    case EH_KIND_SIGNAL: return "signal";
    case EH_KIND_RANDOM: return "random";
    case EH_KIND_CONVERT: return "convert";
    case EH_KIND_META: return "meta";
    }
    return "?";
}

/* The kind column: the op's kind, or a custom op's shape rule. */
static const char *row_kind(const info *in, int op)
{
    if (op < in->n_ops)
        return kind_name(eh_op_kind_of((eh_op)op));
    const eh_custom_op_def *d = eh_custom_op_get(op);
    if (!d)
        return "custom (kernels, no definition)";
    switch (d->rule) {
    case EH_CUSTOM_ELEMENTWISE: return d->per_element ? "custom elementwise, per-element" : "custom elementwise";
    case EH_CUSTOM_SAME_AS_INPUT: return "custom same-as-input";
    case EH_CUSTOM_REDUCTION: return "custom reduction";
    case EH_CUSTOM_INFER: return "custom infer";
    case EH_CUSTOM_DYNAMIC: return "custom dynamic (runs at the call)";
    }
    return "custom";
}

static int is_deferring(const info *in, int b)
{
    return in->tables[b] && in->tables[b]->defer != NULL;
}

/* Whose kernel is kernel pointer k for op?  ref (the reference every
 * backend may share) first, then eager backends in list order, then any
 * backend: a deferring backend runs other backends' kernels, it does not
 * own them. */
static const char *kernel_owner(const info *in, int op, eh_kernel_fn k)
{
    const eh_backend *ref = eh_find_backend("ref");
    if (ref && ref->kernels[op] == k)
        return ref->name;
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < in->n_backends; b++) {
            if (!in->tables[b] || (pass == 0 && is_deferring(in, b)))
                continue;
            if (in->tables[b]->kernels[op] == k)
                return in->tables[b]->name;
        }
    return NULL;
}

/* One cell: what runs op on backend b. */
static void fill_cell(const info *in, int op, int b, cell *c)
{
    c->owner = NULL;
    c->fused = 0;
    c->impl = IMPL_MISSING;
    if (eh_backend_supports(in->names[b], op) != 1)
        return;
    if (op < in->n_ops && eh_op_kind_of((eh_op)op) == EH_KIND_META) {
        c->impl = IMPL_FRONTEND;
        return;
    }
    const char *whose = NULL;
    eh_kernel_fn k = eh_backend_kernel_whose(in->tables[b], op, &whose);
    /* built-in ops: by kernel pointer, so two tables holding ref's kernel
     * both say so; custom ops: by the backend it was registered for */
    const char *owner = op < in->n_ops ? (k ? kernel_owner(in, op, k) : NULL) : whose;
    if (k && !owner && op >= in->n_ops)
        c->impl = IMPL_PER_ELEMENT;
    else if (!owner || strcmp(owner, in->names[b]) == 0)
        c->impl = IMPL_OWN;
    else {
        c->impl = IMPL_SHARED;
        c->owner = owner;
    }
    c->fused = is_deferring(in, b) && eh_op_is_elementwise((eh_op)op);
}

static int collect(info *in)
{
    in->n_backends = eh_list_backends(NULL, 0);
    in->n_ops = eh_op_count();
    in->n_custom = eh_custom_op_count();
    if (in->n_backends < 0 || in->n_ops < 0 || in->n_custom < 0)
        return -1;
    int rows = in->n_ops + in->n_custom;
    in->names = calloc((size_t)in->n_backends + 1, sizeof *in->names);
    in->tables = calloc((size_t)in->n_backends + 1, sizeof *in->tables);
    in->cells = calloc((size_t)rows * (size_t)in->n_backends + 1, sizeof *in->cells);
    if (!in->names || !in->tables || !in->cells)
        return -1;
    eh_list_backends(in->names, in->n_backends);
    for (int b = 0; b < in->n_backends; b++)
        in->tables[b] = eh_find_backend(in->names[b]);
    for (int op = 0; op < rows; op++)
        for (int b = 0; b < in->n_backends; b++)
            fill_cell(in, op, b, &in->cells[op * in->n_backends + b]);
    return 0;
}

static void release(info *in)
{
    free(in->names);
    free(in->tables);
    free(in->cells);
}

static const cell *at(const info *in, int op, int b)
{
    return &in->cells[op * in->n_backends + b];
}

/* The words of a cell; `dash` for a missing op. */
static void cell_text(const cell *c, const char *dash, char *buf, size_t cap)
{
    const char *fused = c->fused ? "fused, " : "";
    switch (c->impl) {
    case IMPL_OWN: snprintf(buf, cap, "%sown", fused); break;
    case IMPL_SHARED: snprintf(buf, cap, "%s%s kernel", fused, c->owner); break;
    case IMPL_FRONTEND: snprintf(buf, cap, "frontend"); break;
    case IMPL_PER_ELEMENT: snprintf(buf, cap, "%sper-element", fused); break;
    case IMPL_MISSING: snprintf(buf, cap, "%s", dash); break;
    }
}

typedef struct counts {
    int own, shared, frontend, missing, fused;
} counts;

static counts count(const info *in, int b)
{
    counts n = {0, 0, 0, 0, 0};
    for (int op = 0; op < in->n_ops; op++) {
        const cell *c = at(in, op, b);
        n.own += c->impl == IMPL_OWN;
        n.shared += c->impl == IMPL_SHARED;
        n.frontend += c->impl == IMPL_FRONTEND;
        n.missing += c->impl == IMPL_MISSING;
        n.fused += c->fused;
    }
    return n;
}

static const char *description(const info *in, int b)
{
    return in->tables[b] && in->tables[b]->description ? in->tables[b]->description : "";
}

/* ---- text ---------------------------------------------------------------- */

/* The rows of ops [from, to), with a header, columns sized to fit. */
static void print_text_table(const info *in, int from, int to)
{
    int wop = 2, wkind = 4;
    int *wcol = calloc((size_t)in->n_backends + 1, sizeof *wcol);
    if (!wcol)
        return;
    char buf[96];
    for (int b = 0; b < in->n_backends; b++)
        wcol[b] = (int)strlen(in->names[b]);
    for (int op = from; op < to; op++) {
        if ((int)strlen(eh_op_name(op)) > wop)
            wop = (int)strlen(eh_op_name(op));
        if ((int)strlen(row_kind(in, op)) > wkind)
            wkind = (int)strlen(row_kind(in, op));
        for (int b = 0; b < in->n_backends; b++) {
            cell_text(at(in, op, b), "-", buf, sizeof buf);
            if ((int)strlen(buf) > wcol[b])
                wcol[b] = (int)strlen(buf);
        }
    }
    printf("\n%-*s  %-*s", wop, "op", wkind, "kind");
    for (int b = 0; b < in->n_backends; b++)
        printf("  %-*s", b + 1 < in->n_backends ? wcol[b] : 0, in->names[b]);
    printf("\n");
    for (int op = from; op < to; op++) {
        printf("%-*s  %-*s", wop, eh_op_name(op), wkind, row_kind(in, op));
        for (int b = 0; b < in->n_backends; b++) {
            cell_text(at(in, op, b), "-", buf, sizeof buf);
            printf("  %-*s", b + 1 < in->n_backends ? wcol[b] : 0, buf);
        }
        printf("\n");
    }
    free(wcol);
}

static void print_text(const info *in)
{
    const char *current = eh_get_backend();
    printf("libeh %s: %d backend%s, %d ops\n\n", eh_version(), in->n_backends,
           in->n_backends == 1 ? "" : "s", in->n_ops);

    int wname = 7;
    for (int b = 0; b < in->n_backends; b++)
        if ((int)strlen(in->names[b]) > wname)
            wname = (int)strlen(in->names[b]);
    printf("backends (current: %s)\n", current ? current : "none: EH_BACKEND names no backend");
    for (int b = 0; b < in->n_backends; b++) {
        counts n = count(in, b);
        printf("  %-*s  %s\n", wname, in->names[b], description(in, b));
        printf("  %-*s  %d own, %d shared, %d frontend, %d missing%s\n", wname, "", n.own, n.shared,
               n.frontend, n.missing, is_deferring(in, b) ? "; defers every op, fuses elementwise chains" : "");
    }
    eh_clear_error();

    print_text_table(in, 0, in->n_ops);
    if (in->n_custom > 0) {
        printf("\ncustom ops (%d)\n", in->n_custom);
        print_text_table(in, in->n_ops, in->n_ops + in->n_custom);
    }
}

/* ---- markdown -------------------------------------------------------------- */

static void md_escape(const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_')
            putchar('\\');
        putchar(*s);
    }
}

/* A table of the ops [from, to). */
static void print_markdown_table(const info *in, int from, int to)
{
    printf("\n| op | kind |");
    for (int b = 0; b < in->n_backends; b++)
        printf(" `%s` |", in->names[b]);
    printf("\n|---|---|");
    for (int b = 0; b < in->n_backends; b++)
        printf("---|");
    printf("\n");
    char buf[96];
    for (int op = from; op < to; op++) {
        /* op names are identifiers (custom ones with dots): nothing to escape */
        printf("| `%s` | %s |", eh_op_name(op), row_kind(in, op));
        for (int b = 0; b < in->n_backends; b++) {
            cell_text(at(in, op, b), "—", buf, sizeof buf);
            printf(" %s |", buf);
        }
        printf("\n");
    }
}

static void print_markdown(const info *in)
{
    printf("<!-- GENERATED by `ehinfo --format markdown` (make docs). Do not edit by hand:\n"
           "     `make test` fails when this file differs from what ehinfo prints. -->\n\n");
    printf("# Op x backend support matrix\n\n");
    printf("libeh %s: %d backend%s, %d ops (`libeh/ops.def`). Generated from the library\n"
           "itself by `build/bin/ehinfo --format markdown`; run `make docs` to refresh it.\n\n",
           eh_version(), in->n_backends, in->n_backends == 1 ? "" : "s", in->n_ops);

    printf("## Backends\n\n");
    printf("| backend | description | own | shared | frontend | missing |\n");
    printf("|---|---|---:|---:|---:|---:|\n");
    for (int b = 0; b < in->n_backends; b++) {
        counts n = count(in, b);
        printf("| `%s` | ", in->names[b]);
        md_escape(description(in, b));
        printf("%s | %d | %d | %d | %d |\n",
               is_deferring(in, b) ? " (defers every op)" : "", n.own, n.shared, n.frontend,
               n.missing);
    }

    printf("\n## Legend\n\n");
    printf("- **own**: the backend's own kernel.\n");
    printf("- **`<b>` kernel**: the backend's table points at backend `<b>`'s kernel\n"
           "  (\"ref kernel\": the shared reference kernel, where the backend has nothing\n"
           "  faster). Found by comparing the kernel pointers of the tables.\n");
    printf("- **frontend**: a META op, answered by the frontend alone; no backend has a kernel.\n");
    printf("- **fused**: the backend defers the op and runs chains of such ops as one\n"
           "  blocked pass, calling the named kernel on each block.\n");
    printf("- **—**: not implemented: the op fails on this backend.\n");

    printf("\n## Matrix\n");
    print_markdown_table(in, 0, in->n_ops);
    if (in->n_custom > 0) {
        printf("\n## Custom ops\n\n"
               "Registered in the process that ran ehinfo (`--plugin PATH` loads a plugin\n"
               "first). **per-element**: no kernel; the op's per-element function runs.\n");
        print_markdown_table(in, in->n_ops, in->n_ops + in->n_custom);
    }
}

/* ---- json ------------------------------------------------------------------ */

static void json_string(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        default:
            if (*p < 0x20)
                printf("\\u%04x", *p);
            else
                putchar(*p);
        }
    }
    putchar('"');
}

static const char *impl_name(enum impl i)
{
    switch (i) {
    case IMPL_OWN: return "own";
    case IMPL_SHARED: return "shared";
    case IMPL_FRONTEND: return "frontend";
    case IMPL_PER_ELEMENT: return "per_element";
    case IMPL_MISSING: return "missing";
    }
    return "?";
}

static void print_json_rows(const info *in, int from, int to);

static void print_json(const info *in)
{
    const char *current = eh_get_backend();
    eh_clear_error();
    printf("{\n  \"libeh_version\": ");
    json_string(eh_version());
    printf(",\n  \"current_backend\": ");
    json_string(current);
    printf(",\n  \"backends\": [");
    for (int b = 0; b < in->n_backends; b++) {
        counts n = count(in, b);
        printf("%s\n    {\"name\": ", b ? "," : "");
        json_string(in->names[b]);
        printf(", \"description\": ");
        json_string(description(in, b));
        printf(", \"deferred\": %s, \"own\": %d, \"shared\": %d, \"frontend\": %d, \"missing\": %d}",
               is_deferring(in, b) ? "true" : "false", n.own, n.shared, n.frontend, n.missing);
    }
    printf("\n  ],\n  \"ops\": [");
    print_json_rows(in, 0, in->n_ops);
    printf("\n  ],\n  \"custom_ops\": [");
    print_json_rows(in, in->n_ops, in->n_ops + in->n_custom);
    printf("\n  ]\n}\n");
}

/* The rows of ops [from, to) of the "ops" / "custom_ops" arrays. */
static void print_json_rows(const info *in, int from, int to)
{
    for (int op = from; op < to; op++) {
        printf("%s\n    {\"name\": ", op > from ? "," : "");
        json_string(eh_op_name(op));
        printf(", \"kind\": ");
        json_string(row_kind(in, op));
        printf(", \"support\": {");
        for (int b = 0; b < in->n_backends; b++) {
            const cell *c = at(in, op, b);
            printf("%s", b ? ", " : "");
            json_string(in->names[b]);
            printf(": {\"supported\": %s, \"implementation\": \"%s\", \"kernel_of\": ",
                   c->impl == IMPL_MISSING ? "false" : "true", impl_name(c->impl));
            json_string(c->impl == IMPL_OWN ? in->names[b] : c->owner);
            printf(", \"fused\": %s}", c->fused ? "true" : "false");
        }
        printf("}}");
    }
}

/* ---- main --------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ehinfo [--format text|markdown|json] [--plugin PATH]...\n"
            "       ehinfo --help | --version\n"
            "\n"
            "Print libeh's backends and the op x backend support matrix, custom ops\n"
            "included.\n"
            "\n"
            "  -f, --format FMT  text (default), markdown (docs/support-matrix.md) or json\n"
            "  -p, --plugin PATH load a backend plugin first (repeatable); its backend\n"
            "                    and custom ops are listed (EH_BACKEND_PATH works too)\n"
            "  -h, --help        this help\n"
            "      --version     ehinfo's and libeh's version\n"
            "\n"
            "Cells: own (the backend's own kernel), '<b> kernel' (shares backend <b>'s\n"
            "kernel), frontend (META op, no kernel), fused (deferred and fused into one\n"
            "pass), per-element (a custom op's per-element function), '-' (not\n"
            "implemented).\n"
            "\n"
            "Exit status: 0 ok, 1 output error, 2 bad usage or a plugin that does not load.\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "ehinfo: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try 'ehinfo --help')\n");
    return 2;
}

/* Flush stdout: 0, or 1 with a message (a full disk, a closed pipe). */
static int output_written(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ehinfo: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    enum format fmt = FMT_TEXT;
    const char **plugins = calloc((size_t)argc + 1, sizeof *plugins);
    int n_plugins = 0;
    if (!plugins) {
        fprintf(stderr, "ehinfo: out of memory\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        if (strcmp(a, "-p") == 0 || strcmp(a, "--plugin") == 0) {
            if (i + 1 >= argc) {
                free(plugins);
                return bad_usage("%s needs a path: a backend plugin (libeh-<name>.so)", a);
            }
            plugins[n_plugins++] = argv[++i];
            continue;
        }
        if (strncmp(a, "--plugin=", 9) == 0) {
            plugins[n_plugins++] = a + 9;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            free(plugins);
            usage(stdout);
            return output_written();
        } else if (strcmp(a, "--version") == 0) {
            free(plugins);
            printf("ehinfo (libeh) %s\n", eh_version());
            return output_written();
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "--format") == 0) {
            if (i + 1 >= argc) {
                free(plugins);
                return bad_usage("%s needs a value: text, markdown or json", a);
            }
            value = argv[++i];
        } else if (strncmp(a, "--format=", 9) == 0) {
            value = a + 9;
        } else {
            free(plugins);
            return bad_usage(a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", a);
        }
        if (strcmp(value, "text") == 0)
            fmt = FMT_TEXT;
        else if (strcmp(value, "markdown") == 0 || strcmp(value, "md") == 0)
            fmt = FMT_MARKDOWN;
        else if (strcmp(value, "json") == 0)
            fmt = FMT_JSON;
        else {
            free(plugins);
            return bad_usage("unknown format '%s' (expected text, markdown or json)", value);
        }
    }
    for (int k = 0; k < n_plugins; k++)
        if (eh_backend_load(plugins[k]) != EH_OK) {
            fprintf(stderr, "ehinfo: %s\n", eh_error_message());
            free(plugins);
            return 2;
        }
    free(plugins);

    info in = {0, NULL, NULL, 0, 0, NULL};
    if (collect(&in) != 0) {
        fprintf(stderr, "ehinfo: out of memory\n");
        release(&in);
        return 1;
    }
    switch (fmt) {
    case FMT_TEXT: print_text(&in); break;
    case FMT_MARKDOWN: print_markdown(&in); break;
    case FMT_JSON: print_json(&in); break;
    }
    release(&in);
    return output_written();
}
