/*
 * nljq: query JSON Lines (numalens top --json) from guest test scripts,
 * which have busybox but no jq.
 *
 *   nljq [-s] [-l N | -L] FILE|- PATH...
 *
 * For every line (one JSON object) it prints the value of each PATH,
 * tab-separated, one output line per input line. -l N keeps only line N
 * (1-based), -L only the last line. -s prints instead one line with the sum
 * of each PATH over the (kept) lines; nulls and non-numbers are skipped and a
 * path with no number at all sums to "null".
 *
 * PATH is a dot-separated list of object keys, each optionally followed by
 * selectors: [N] (array index) or [field=value] (the first array element
 * whose field, printed as below, equals value), e.g.
 *   nodes[nid=3].bpf.events_other
 *   processes[pid=42].run_ns_by_node.2
 *   cgroups[path=/a/b].run_ns
 * Dots inside [...] do not split. Printed values: integers without a
 * fraction, other numbers %.17g, strings raw, true/false, null, objects
 * and arrays as compact JSON; a path that does not exist prints "missing".
 * Exit 0; 2 on bad usage or unreadable file; 1 if a line is not JSON.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fmt_value: render v into buf (see the header comment); returns buf. */
static const char *fmt_value(const cJSON *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "missing");
	else if (cJSON_IsNull(v))
		snprintf(buf, len, "null");
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (d == floor(d) && fabs(d) < 1e17)
			snprintf(buf, len, "%.0f", d);
		else
			snprintf(buf, len, "%.17g", d);
	} else if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else {
		char *s = cJSON_PrintUnformatted(v);
		snprintf(buf, len, "%s", s ? s : "?");
		free(s);
	}
	return buf;
}

/* select_elem: apply one selector text ("3" or "field=value") to array a. */
static const cJSON *select_elem(const cJSON *a, const char *sel)
{
	const char *eq = strchr(sel, '=');
	const cJSON *e;
	char buf[4096];

	if (!cJSON_IsArray(a))
		return NULL;
	if (!eq)
		return cJSON_GetArrayItem(a, atoi(sel));
	cJSON_ArrayForEach(e, a) {
		char field[256];
		size_t fl = (size_t)(eq - sel);
		if (fl >= sizeof(field))
			return NULL;
		memcpy(field, sel, fl);
		field[fl] = 0;
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, field);
		if (f && !strcmp(fmt_value(f, buf, sizeof(buf)), eq + 1))
			return e;
	}
	return NULL;
}

/* lookup: follow path from root; NULL when some step does not exist. */
static const cJSON *lookup(const cJSON *root, const char *path)
{
	const cJSON *cur = root;
	const char *p = path;
	char tok[4096];

	while (cur && *p) {
		size_t n = 0;
		/* key part: up to '.', '[' or end */
		while (*p && *p != '.' && *p != '[' && n < sizeof(tok) - 1)
			tok[n++] = *p++;
		tok[n] = 0;
		if (n)
			cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
		while (cur && *p == '[') {
			const char *end = strchr(p, ']');
			if (!end || (size_t)(end - p) >= sizeof(tok))
				return NULL;
			memcpy(tok, p + 1, (size_t)(end - p - 1));
			tok[end - p - 1] = 0;
			cur = select_elem(cur, tok);
			p = end + 1;
		}
		if (*p == '.')
			p++;
		else if (*p && *p != '[')
			return NULL;
	}
	return cur;
}

static void usage(void)
{
	fputs("usage: nljq [-s] [-l N | -L] FILE|- PATH...\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	int sum = 0, only = 0, last = 0, i = 1;
	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		if (!strcmp(argv[i], "-s"))
			sum = 1;
		else if (!strcmp(argv[i], "-L"))
			last = 1;
		else if (!strcmp(argv[i], "-l") && i + 1 < argc)
			only = atoi(argv[++i]);
		else
			usage();
		i++;
	}
	if (argc - i < 2)
		usage();
	FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
	if (!f) {
		perror(argv[i]);
		return 2;
	}
	char **paths = argv + i + 1;
	int np = argc - i - 1, lineno = 0, rc = 0;
	double *sums = calloc(np, sizeof(double));
	int *seen = calloc(np, sizeof(int));
	char *line = NULL, *keep = NULL, buf[65536];
	size_t cap = 0;
	ssize_t len;

	/* with -L, remember the last non-empty line and handle it at the end */
	while ((len = getline(&line, &cap, f)) > 0 || (last && keep)) {
		char *text = line;
		if (len <= 0) {
			text = keep, keep = NULL, last = 0;
		} else if (line[0] == '\n') {
			continue;
		} else {
			lineno++;
			if (only && lineno != only)
				continue;
			if (last) {
				free(keep);
				keep = strdup(line);
				continue;
			}
		}
		cJSON *root = cJSON_Parse(text);
		if (!root) {
			fprintf(stderr, "nljq: line %d is not JSON\n", lineno);
			rc = 1;
			continue;
		}
		for (int k = 0; k < np; k++) {
			const cJSON *v = lookup(root, paths[k]);
			if (sum) {
				if (cJSON_IsNumber(v))
					sums[k] += v->valuedouble, seen[k] = 1;
			} else {
				printf("%s%s", k ? "\t" : "", fmt_value(v, buf, sizeof(buf)));
			}
		}
		if (!sum)
			putchar('\n');
		cJSON_Delete(root);
		if (len <= 0)
			break;
	}
	if (sum) {
		for (int k = 0; k < np; k++) {
			cJSON *n = cJSON_CreateNumber(sums[k]);
			printf("%s%s", k ? "\t" : "", seen[k] ? fmt_value(n, buf, sizeof(buf)) : "null");
			cJSON_Delete(n);
		}
		putchar('\n');
	}
	return rc;
}
