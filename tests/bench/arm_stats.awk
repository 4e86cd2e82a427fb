# Per-arm mean and standard deviation of KEY=VALUE fields, shared by the
# bench reports (reclaim.sh, reclaim_r19.sh); each adds its own END table.
# Input lines: "TAG arm=A k1=v1 k2=v2 ...". Set -v keys="k1 k2 ...".
# Afterwards: n[a] runs of arm a; mean(a, k) and sd(a, k) of the k-th key
# (population sd, as the runs are the whole sample we report on).
# Paired: runs carry run=R; pn(a), pmean(a, k), psd(a, k) are the count,
# mean and sd of (arm a - arm "none") over the runs both have, and
# ppct(a, k) that mean as a percent of none's mean over those runs.

# field(k): value of KEY k on the current line ("" if absent)
function field(k,   i, kv) {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
	return ""
}
function mean(a, k) { return n[a] ? s[a, k] / n[a] : 0 }
function sd(a, k,   m, v) {
	if (!n[a]) return 0
	m = mean(a, k); v = q[a, k] / n[a] - m * m
	return sqrt(v > 0 ? v : 0)
}
# pct(x, base): change of x against base, in percent (0 without a base)
function pct(x, base) { return base ? 100 * (x - base) / base : 0 }
BEGIN { nk = split(keys, key, " ") }
# median(a, k): median of the k-th key over arm a's runs (robust to the
# co-tenant stalls a shared host adds to a single run)
function median(a, k,   r, m, i, j, t, x) {
	m = 0
	for (r = 1; r <= maxrun; r++) if (have[a, r]) x[++m] = val[a, r, k]
	for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
	if (!m) return 0
	return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
function pn(a,   r, c) { c = 0; for (r = 1; r <= maxrun; r++) if (have[a, r] && have["none", r]) c++; return c }
function pmean(a, k,   r, c, t) {
	c = 0; t = 0
	for (r = 1; r <= maxrun; r++) if (have[a, r] && have["none", r]) { c++; t += val[a, r, k] - val["none", r, k] }
	return c ? t / c : 0
}
function psd(a, k,   r, c, m, t, d) {
	c = 0; t = 0; m = pmean(a, k)
	for (r = 1; r <= maxrun; r++) if (have[a, r] && have["none", r]) { c++; d = val[a, r, k] - val["none", r, k] - m; t += d * d }
	return c ? sqrt(t / c) : 0
}
function ppct(a, k,   r, c, t) {
	c = 0; t = 0
	for (r = 1; r <= maxrun; r++) if (have[a, r] && have["none", r]) { c++; t += val["none", r, k] }
	return t ? 100 * pmean(a, k) / (t / c) : 0
}
# verdict(a, k, what): one plain line on arm a against no agent for key k
# (lower is better): better or WORSE, by how much, and whether the paired
# difference is beyond one sd of itself or within it (then not told apart)
function verdict(a, k, what,   d, e, w, h) {
	d = pmean(a, k); e = psd(a, k)
	w = "no different"; if (d < 0) w = "better"; if (d > 0) w = "WORSE"
	h = "within one sd: not told apart from no agent"; if (d > e || -d > e) h = "beyond one sd"
	printf "  %-8s %s than no agent on %s: %+.1f%% (%s)\n", a, w, what, ppct(a, k), h
}
# target_lines(ke, km, kx, worse): the elapsed-time and limit-hit target of
# the dd | tail and build-like loads for each agent arm (elapsed key ke <=
# no agent + 5%, memory.events max key km down >= 60%), and a line of its
# own for each arm slower than no agent by more than one sd of the paired
# difference, or higher on key kx ("ARM WORSE: +N per run")
function target_lines(ke, km, kx, worse, worse_what,   j, a, e, m, ag) {
	printf "target: elapsed <= no agent + 5%%, memory.events max down >= 60%%\n"
	split("rr lottery lotbug", ag, " ")
	for (j = 1; j <= 3; j++) { a = ag[j]; if (!pn(a)) continue
		e = ppct(a, ke); m = ppct(a, km)
		printf "  %-8s elapsed %s (%+.1f%%), events.max %s (%+.1f%%)\n", a, e <= 5 ? "met" : "NOT met", e, m <= -60 ? "met" : "NOT met", m
		verdict(a, ke, "elapsed time"); verdict(a, kx, worse_what); verdict(a, km, "limit hits (memory.events max)")
		if (pmean(a, ke) > psd(a, ke) && pmean(a, ke) > 0)
			printf "%s is slower than no agent: %+.2f s per run (more than one sd of the paired difference)\n", a, pmean(a, ke) / 1000
		if (pmean(a, kx) > psd(a, kx) && pmean(a, kx) > 0)
			printf "%s %s: %+.0f per run\n", a, worse, pmean(a, kx)
	}
}
{
	arm = field("arm"); n[arm]++; run = field("run") + 0
	if (run > maxrun) maxrun = run
	have[arm, run] = 1
	for (k = 1; k <= nk; k++) { v = field(key[k]); s[arm, k] += v; q[arm, k] += v * v; val[arm, run, k] = v }
}
