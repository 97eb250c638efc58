package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestManifestAliases: a case written with an anchor, an alias of it and
// a merge key that overrides some of its keys are the cases they stand
// for; an alias of no anchor is an error at the alias.
func TestManifestAliases(t *testing.T) {
	const manifest = `cases:
  - &c0 {spec: dijkstra, params: &p {n: 3, K: 3}, expect: {safety: holds}}
  - *c0
  - <<: *c0
    name: merged
    params: {n: 4, K: 4}
  - spec: dijkstra
    params: *p
    expect: {deadlock: holds}
`
	cases, err := parseManifest(context.Background(), "m.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		got = append(got, fmt.Sprintf("%s %s %v %v", c.name, c.spec, c.req.Params, c.expect))
	}
	want := []string{
		"dijkstra n=3 K=3 dijkstra map[K:3 n:3] [{safety holds}]",
		"dijkstra n=3 K=3 dijkstra map[K:3 n:3] [{safety holds}]",
		"merged dijkstra map[K:4 n:4] [{safety holds}]",
		"dijkstra n=3 K=3 dijkstra map[K:3 n:3] [{deadlock holds}]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cases\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// An error beside a merge key is placed where it is written.
	_, err = parseManifest(context.Background(), "m.yaml", []byte("cases:\n  - &c {spec: dijkstra, expect: {safety: holds}}\n  - {<<: *c, max_depth: 1.5}\n"))
	if want := "m.yaml:3:25: cases[1].max_depth: 1.5 is not an integer"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = parseManifest(context.Background(), "m.yaml", []byte("cases:\n  - *c\n"))
	if want := "m.yaml:2:5: alias *c: no anchor &c before it"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestManifestAliasesBounded: aliases of aliases that expand to more
// nodes than a manifest may have are an error, not a heap that grows.
func TestManifestAliasesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("cases:\n  - spec: dijkstra\n    expect: {safety: holds}\n    params:\n      a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "      a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	_, err := parseManifest(context.Background(), "m.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "its aliases expand to more than 1048576 nodes") {
		t.Fatalf("error %v, want the aliases' expansion refused", err)
	}
}
