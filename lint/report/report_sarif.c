/* lint/report/report_sarif.c -- `--format sarif`: SARIF 2.1.0, as GitHub code
 * scanning accepts it: every rule's metadata in tool.driver.rules (id,
 * name, descriptions, help from its docs page, default level), and one
 * result per finding with ruleId, ruleIndex, level, message and a
 * physical location relative to %SRCROOT% (the current directory). */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "report.h"
#include "strbuf.h"
#include "utf8.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

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
    json_object *conf = json_object_new_object();
    json_object_object_add(conf, "level", json_object_new_string(level_of(m->severity)));
    json_object_object_add(o, "defaultConfiguration", conf);
    json_object *props = json_object_new_object();
    json_object *tags = json_object_new_array();
    json_object_array_add(tags, json_object_new_string(category(m->id)));
    json_object_array_add(tags, json_object_new_string("emberlint"));
    json_object_object_add(props, "tags", tags);
    json_object_object_add(props, "precision", json_object_new_string("high"));
    json_object_object_add(props, "fixable", json_object_new_boolean(m->fixable));
    json_object_object_add(props, "fix", json_object_new_string(m->fix));
    json_object_object_add(o, "properties", props);
    return o;
}

static json_object *location_obj(const el_finding *x)
{
    json_object *art = json_object_new_object();
    char *rel = el_path_under(x->file, el_cwd());
    if (rel) {
        char *uri = uri_encode(rel);
        json_object_object_add(art, "uri", json_object_new_string(uri));
        json_object_object_add(art, "uriBaseId", json_object_new_string("%SRCROOT%"));
        free(uri);
        free(rel);
    } else {
        char *enc = uri_encode(x->file);
        char *uri = el_xasprintf("file://%s", enc);
        json_object_object_add(art, "uri", json_object_new_string(uri));
        free(uri);
        free(enc);
    }
    json_object *region = json_object_new_object();
    json_object_object_add(region, "startLine", json_object_new_int64(x->line));
    json_object_object_add(region, "startColumn", json_object_new_int64(x->col));
    json_object *phys = json_object_new_object();
    json_object_object_add(phys, "artifactLocation", art);
    json_object_object_add(phys, "region", region);
    json_object *loc = json_object_new_object();
    json_object_object_add(loc, "physicalLocation", phys);
    json_object *locs = json_object_new_array();
    json_object_array_add(locs, loc);
    return locs;
}

int el_report_sarif(FILE *out, const el_output *r)
{
    json_object *driver = json_object_new_object();
    json_object_object_add(driver, "name", json_object_new_string("emberlint"));
    json_object_object_add(driver, "version", json_object_new_string(EL_VERSION));
    json_object_object_add(driver, "semanticVersion", json_object_new_string(EL_VERSION));
    json_object *rules = json_object_new_array();
    for (size_t k = 0; k < el_meta_count(); k++)
        json_object_array_add(rules, rule_obj(el_meta_at(k)));
    json_object_object_add(driver, "rules", rules);
    json_object *tool = json_object_new_object();
    json_object_object_add(tool, "driver", driver);

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
        json_object_object_add(res, "locations", location_obj(x));
        json_object_array_add(results, res);
    }

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
    json_object_object_add(run, "results", results);

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
