/* lint/report/report_sarif.c -- `--format sarif`: SARIF 2.1.0, as GitHub code
 * scanning accepts it and Microsoft's SARIF Multitool validates it (make
 * test runs the validator): every rule's metadata in tool.driver.rules
 * (id, name, descriptions, help from its docs page, helpUri, default
 * level, unique tags), and one result per finding with ruleId,
 * ruleIndex, level, message, a physical location relative to %SRCROOT%
 * (the current directory) with UTF-16 columns (SARIF's default
 * columnKind), partialFingerprints (fingerprint.h) and, when the finding
 * has a fix, fixes[] with its artifactChanges. */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fingerprint.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "report.h"
#include "strbuf.h"
#include "utf8.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

#ifndef EL_DOCS_URI
#define EL_DOCS_URI "file:///usr/local/share/doc/emberharmony/"
#endif

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
/* The key of our partialFingerprints entry (SARIF's "name/vN" form). */
#define FINGERPRINT_KEY "emberlint/v1"

static const char *level_of(el_severity s)
{
    return s == EL_SEV_ERROR ? "error" : s == EL_SEV_WARNING ? "warning" : "note";
}

/* Percent-encode a path for a URI (keeps unreserved characters and '/'). */
static char *uri_encode(const char *path)
{
    el_buf b = {0};
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            el_buf_putc(&b, (char)*p);
        else
            el_buf_printf(&b, "%%%02X", *p);
    }
    return el_buf_take(&b);
}

static json_object *text_obj(const char *key, const char *text)
{
    json_object *o = json_object_new_object();
    char *c = el_utf8_clean(text);
    json_object_object_add(o, key, json_object_new_string(c));
    free(c);
    return o;
}

static const char *category(const char *id)
{
    if (strncmp(id, "EH1", 3) == 0)
        return "separation";
    if (strncmp(id, "EH2", 3) == 0)
        return "ops-only";
    if (strncmp(id, "EH3", 3) == 0)
        return "precision";
    if (strncmp(id, "EH4", 3) == 0)
        return "conversions";
    return "emberlint";
}

static json_object *rule_obj(const el_rule_meta *m)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "id", json_object_new_string(m->id));
    json_object_object_add(o, "name", json_object_new_string(m->name));
    json_object_object_add(o, "shortDescription", text_obj("text", m->summary));
    char *full = el_doc_first_paragraph(m->doc);
    json_object_object_add(o, "fullDescription", text_obj("text", full ? full : m->summary));
    free(full);
    json_object *help = json_object_new_object();
    /* The docs page, as the build embedded it (our own UTF-8 Markdown). */
    const char *page = m->doc ? m->doc : m->summary;
    json_object_object_add(help, "text", json_object_new_string(page));
    json_object_object_add(help, "markdown", json_object_new_string(page));
    json_object_object_add(o, "help", help);
    char *help_uri = el_xasprintf("%srules/%s.md", EL_DOCS_URI, m->id);
    json_object_object_add(o, "helpUri", json_object_new_string(help_uri));
    free(help_uri);
    json_object *conf = json_object_new_object();
    json_object_object_add(conf, "level", json_object_new_string(level_of(m->severity)));
    json_object_object_add(o, "defaultConfiguration", conf);
    json_object *props = json_object_new_object();
    json_object *tags = json_object_new_array();
    /* tags must be unique (the schema's uniqueItems: JSON1020) */
    json_object_array_add(tags, json_object_new_string(category(m->id)));
    if (strcmp(category(m->id), "emberlint") != 0)
        json_object_array_add(tags, json_object_new_string("emberlint"));
    json_object_object_add(props, "tags", tags);
    json_object_object_add(props, "precision", json_object_new_string("high"));
    json_object_object_add(props, "fixable", json_object_new_boolean(m->fixable));
    json_object_object_add(props, "fix", json_object_new_string(m->fix));
    json_object_object_add(o, "properties", props);
    return o;
}

/* An artifactLocation: a URI relative to %SRCROOT% when the file is
 * under the current directory, else an absolute file: URI. */
static json_object *artifact_obj(const char *file)
{
    json_object *art = json_object_new_object();
    char *rel = el_path_under(file, el_cwd());
    if (rel) {
        char *uri = uri_encode(rel);
        json_object_object_add(art, "uri", json_object_new_string(uri));
        json_object_object_add(art, "uriBaseId", json_object_new_string("%SRCROOT%"));
        free(uri);
        free(rel);
    } else {
        char *enc = uri_encode(file);
        char *uri = el_xasprintf("file://%s", enc);
        json_object_object_add(art, "uri", json_object_new_string(uri));
        free(uri);
        free(enc);
    }
    return art;
}

static json_object *location_obj(const el_finding *x, const el_text *text)
{
    json_object *region = json_object_new_object();
    json_object_object_add(region, "startLine", json_object_new_int64(x->line ? x->line : 1));
    json_object_object_add(region, "startColumn",
                           json_object_new_int64(el_text_col16(text, x->line, x->col ? x->col : 1)));
    json_object *phys = json_object_new_object();
    json_object_object_add(phys, "artifactLocation", artifact_obj(x->file));
    json_object_object_add(phys, "region", region);
    json_object *loc = json_object_new_object();
    json_object_object_add(loc, "physicalLocation", phys);
    json_object *locs = json_object_new_array();
    json_object_array_add(locs, loc);
    return locs;
}

/* A region of text from byte offsets (the edit's range in the content as
 * parsed, which is the file's content now when nothing changed it). */
static json_object *region_of(const el_text *t, size_t begin, size_t end)
{
    unsigned l0, c0, l1, c1;
    el_text_position(t, begin, &l0, &c0);
    el_text_position(t, end, &l1, &c1);
    json_object *r = json_object_new_object();
    json_object_object_add(r, "startLine", json_object_new_int64(l0));
    json_object_object_add(r, "startColumn", json_object_new_int64(c0));
    json_object_object_add(r, "endLine", json_object_new_int64(l1));
    json_object_object_add(r, "endColumn", json_object_new_int64(c1));
    return r;
}

/* fixes[]: one fix, its edits grouped by file (artifactChanges), each a
 * replacement of a region by new text.  NULL when the fix cannot be
 * shown (a file that cannot be read any more). */
static json_object *fixes_obj(const el_fix *fx, el_texts *texts)
{
    el_edits ed = {0};
    el_edits_append(&ed, &fx->edits);
    el_edits_sort_unique(&ed);
    json_object *changes = json_object_new_array();
    for (size_t i = 0; i < ed.n;) {
        const char *path = ed.v[i].path;
        const el_text *t = el_texts_get(texts, path);
        if (!t->data) {
            json_object_put(changes);
            el_edits_free(&ed);
            return NULL;
        }
        json_object *repl = json_object_new_array();
        for (; i < ed.n && strcmp(ed.v[i].path, path) == 0; i++) {
            const el_edit *e = &ed.v[i];
            json_object *rp = json_object_new_object();
            json_object_object_add(rp, "deletedRegion", region_of(t, e->begin, e->end));
            if (e->text[0])
                json_object_object_add(rp, "insertedContent", text_obj("text", e->text));
            json_object_array_add(repl, rp);
        }
        json_object *ch = json_object_new_object();
        json_object_object_add(ch, "artifactLocation", artifact_obj(path));
        json_object_object_add(ch, "replacements", repl);
        json_object_array_add(changes, ch);
    }
    el_edits_free(&ed);
    json_object *fix = json_object_new_object();
    char *desc = el_xasprintf("%s (%s fix)", fx->description ? fx->description : "fix",
                              el_fix_safety_name(fx->safety));
    json_object_object_add(fix, "description", text_obj("text", desc));
    free(desc);
    json_object_object_add(fix, "artifactChanges", changes);
    json_object *fixes = json_object_new_array();
    json_object_array_add(fixes, fix);
    return fixes;
}

int el_report_sarif(FILE *out, const el_output *r)
{
    json_object *driver = json_object_new_object();
    json_object_object_add(driver, "name", json_object_new_string("emberlint"));
    json_object_object_add(driver, "version", json_object_new_string(EL_VERSION));
    json_object_object_add(driver, "semanticVersion", json_object_new_string(EL_VERSION));
    json_object_object_add(driver, "informationUri", json_object_new_string(EL_DOCS_URI "emberlint.md"));
    json_object *rules = json_object_new_array();
    for (size_t k = 0; k < el_meta_count(); k++)
        json_object_array_add(rules, rule_obj(el_meta_at(k)));
    json_object_object_add(driver, "rules", rules);
    json_object *tool = json_object_new_object();
    json_object_object_add(tool, "driver", driver);

    el_texts texts = {0};
    char **own = r->fingerprints ? NULL : el_fingerprints(r->findings, &texts);
    char *const *fps = r->fingerprints ? r->fingerprints : own;
    json_object *results = json_object_new_array();
    for (size_t i = 0; i < r->findings->n; i++) {
        const el_finding *x = &r->findings->v[i];
        json_object *res = json_object_new_object();
        int k = el_meta_index(x->rule);
        json_object_object_add(res, "ruleId", json_object_new_string(x->rule));
        if (k >= 0)
            json_object_object_add(res, "ruleIndex", json_object_new_int(k));
        json_object_object_add(res, "level", json_object_new_string(level_of(x->severity)));
        json_object_object_add(res, "message", text_obj("text", x->message));
        json_object_object_add(res, "locations", location_obj(x, el_texts_get(&texts, x->file)));
        json_object *pf = json_object_new_object();
        json_object_object_add(pf, FINGERPRINT_KEY, json_object_new_string(fps[i]));
        json_object_object_add(res, "partialFingerprints", pf);
        json_object *fixes = x->fix && x->fix->edits.n ? fixes_obj(x->fix, &texts) : NULL;
        if (fixes)
            json_object_object_add(res, "fixes", fixes);
        json_object_array_add(results, res);
    }
    el_fingerprints_free(own, r->findings->n);
    el_texts_free(&texts);

    json_object *run = json_object_new_object();
    json_object_object_add(run, "tool", tool);
    char *cwd_enc = uri_encode(el_cwd());
    char *root_uri = el_xasprintf("file://%s%s", cwd_enc,
                                  cwd_enc[strlen(cwd_enc) - 1] == '/' ? "" : "/");
    json_object *base = json_object_new_object();
    json_object *srcroot = json_object_new_object();
    json_object_object_add(srcroot, "uri", json_object_new_string(root_uri));
    json_object_object_add(base, "%SRCROOT%", srcroot);
    json_object_object_add(run, "originalUriBaseIds", base);
    free(root_uri);
    free(cwd_enc);
    json_object_object_add(run, "columnKind", json_object_new_string("utf16CodeUnits"));
    json_object_object_add(run, "results", results);
    if (r->shard) {
        json_object *props = json_object_new_object();
        json_object_object_add(props, "emberlintShard", json_object_get(r->shard));
        json_object_object_add(run, "properties", props);
    }

    json_object *root = json_object_new_object();
    json_object_object_add(root, "$schema", json_object_new_string(SARIF_SCHEMA));
    json_object_object_add(root, "version", json_object_new_string("2.1.0"));
    json_object *runs = json_object_new_array();
    json_object_array_add(runs, run);
    json_object_object_add(root, "runs", runs);

    fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE),
          out);
    fputc('\n', out);
    json_object_put(root);
    fflush(out);
    return ferror(out) ? -1 : 0;
}
