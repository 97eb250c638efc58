package lang_test

import (
	"maps"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
)

// metaSrc declares the paper's bound, reliable links and a claim out of
// reach.
const metaSrc = `spec meta
param n = 3 in 2..6
param Cmax = 1 in 1..4
const Cap = Cmax + 1
topology ring(n)
var x: 0..2
message M
channels capacity Cap
legitimate: x[0] == 0
claim convergence holds found out-of-reach from all with n = 6
bound "2n rounds (§2)" rounds 2 * n
links reliable enlarge Cmax = 4, n = n + 1 fill Cap * 2
`

// TestBoundAndLinks reads a file's bound and links into its catalogue
// entry: the bound's text, the bound in rounds and the links' enlarged
// parameters and fill for the values given (as 'rounds' evaluates them),
// and a claim out of reach as specs.OutOfReach.
func TestBoundAndLinks(t *testing.T) {
	f, err := lang.Parse("meta.ring", []byte(metaSrc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if s.StabilizationBound != "2n rounds (§2)" {
		t.Errorf("StabilizationBound = %q", s.StabilizationBound)
	}
	if s.RoundsBound == nil || s.Links == nil {
		t.Fatalf("RoundsBound set %v, Links %v: want both", s.RoundsBound != nil, s.Links)
	}
	for _, tc := range []struct {
		values  specs.Values
		rounds  int
		enlarge specs.Values
		fill    int
	}{
		{specs.Values{"n": 3, "Cmax": 1}, 6, specs.Values{"Cmax": 4, "n": 4}, 4},
		{specs.Values{"n": 5, "Cmax": 2}, 10, specs.Values{"Cmax": 4, "n": 6}, 6},
	} {
		if got := s.RoundsBound(tc.values); got != tc.rounds {
			t.Errorf("RoundsBound(%s) = %d, want %d", tc.values, got, tc.rounds)
		}
		if got := s.Links.Enlarge(tc.values); !maps.Equal(got, tc.enlarge) {
			t.Errorf("Enlarge(%s) = %s, want %s", tc.values, got, tc.enlarge)
		}
		if got := s.Links.Fill(tc.values); got != tc.fill {
			t.Errorf("Fill(%s) = %d, want %d", tc.values, got, tc.fill)
		}
	}
	if len(s.Claims) != 1 || s.Claims[0].Found != specs.OutOfReach || s.Claims[0].Start != nil {
		t.Errorf("claims %+v, want one found %s with no Start", s.Claims, specs.OutOfReach)
	}

	// Without fill, a channel of a random configuration holds as many
	// messages as the file's own channels; without rounds, no bound in
	// rounds.
	src := strings.Replace(metaSrc, " fill Cap * 2", "", 1)
	src = strings.Replace(src, " rounds 2 * n", "", 1)
	f, err = lang.Parse("meta.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = f.Spec(); err != nil {
		t.Fatal(err)
	}
	if got := s.Links.Fill(specs.Values{"n": 3, "Cmax": 3}); got != 4 {
		t.Errorf("Fill with no fill declared = %d, want the capacity 4", got)
	}
	if s.RoundsBound != nil || s.StabilizationBound != "2n rounds (§2)" {
		t.Errorf("a bound with no rounds: RoundsBound set %v, text %q", s.RoundsBound != nil, s.StabilizationBound)
	}
}

// TestClaimStartFromFS loads kl-dhv.ring from a file system that is not
// the operating system's, as the catalogue reads the embedded files: its
// convergence claim's Start reads no-convergence.json from there, and
// gives its first configuration.
func TestClaimStartFromFS(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, name := range []string{"kl-dhv.ring", "no-convergence.json"} {
		data, err := os.ReadFile("../specs/ring/" + name)
		if err != nil {
			t.Fatal(err)
		}
		fsys["algos/"+name] = &fstest.MapFile{Data: data}
	}
	// No such folder on disk: the start file comes from fsys or not at all.
	s, _, err := lang.LoadFS(fsys, "algos/kl-dhv.ring", "embedded/kl-dhv.ring")
	if err != nil {
		t.Fatal(err)
	}
	var claim *specs.Claim
	for i, c := range s.Claims {
		if c.Start != nil {
			claim = &s.Claims[i]
		}
	}
	if claim == nil || claim.Property != "convergence" || claim.From != "all" || claim.Found != "violated" {
		t.Fatalf("claim %+v, want a convergence claim from all, found violated from a start", claim)
	}
	values, err := s.Resolve(claim.Params)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := s.Build(values)
	if err != nil {
		t.Fatal(err)
	}
	st, err := claim.Start(sys)
	if err != nil {
		t.Fatal(err)
	}
	trace, err := reports.ReadTraceFile("../specs/ring/no-convergence.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := trace.Configuration(sys, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Equal(want) {
		t.Errorf("the claim starts from\n%v\nwant no-convergence.json's first\n%v", sys.Decode(st), sys.Decode(want))
	}

	// Without the start file, the claim's error is at its place in the
	// .ring file and names the start file as the .ring file is named.
	delete(fsys, "algos/no-convergence.json")
	_, err = claim.Start(sys)
	const want2 = `from "no-convergence.json": open embedded/no-convergence.json: file does not exist`
	if err == nil || !strings.HasPrefix(err.Error(), "embedded/kl-dhv.ring:") || !strings.HasSuffix(err.Error(), want2) {
		t.Errorf("Start without its file: %v, want embedded/kl-dhv.ring:LINE:COL: ...%s", err, want2)
	}
}
