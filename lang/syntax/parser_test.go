package syntax

import (
	"os"
	"strings"
	"testing"
)

func TestParseDijkstra(t *testing.T) {
	src, err := os.ReadFile("../../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("dijkstra.ring", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Decls) != 16 {
		t.Fatalf("%d declarations", len(f.Decls))
	}
}

// TestNestingLimit parses expressions and effects nested around
// maxNesting deep: within it they parse, beyond it the parser reports
// where, as file:line:col, rather than overflow the stack (a fatal error)
// in the parser, the checker or the compiler.
func TestNestingLimit(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..2\n"
	invariant := func(e string) string { return head + "invariant i: " + e + "\n" }
	action := func(effects string) string {
		return head + "process all { action a: x == 0 -> " + effects + " }\n"
	}
	nestedIfs := func(n int) string {
		return strings.Repeat("if true { ", n) + "x := 1" + strings.Repeat(" }", n)
	}
	tests := []struct {
		name, src string
		wantErr   string // "" for none
	}{
		{"parentheses within", invariant(strings.Repeat("(", 990) + "true" + strings.Repeat(")", 990)), ""},
		{"parentheses beyond", invariant(strings.Repeat("(", 2_000_000) + "true"), "fuzz.ring:4:1014: expression or effects nested more than 1000 levels deep"},
		{"unary minus beyond", action("x := " + strings.Repeat("-", 3_000_000) + "1"), "fuzz.ring:4:1038: expression or effects nested more than 1000 levels deep"},
		{"not beyond", invariant(strings.Repeat("!", 1_000_000) + "true"), "fuzz.ring:4:1013: expression or effects nested more than 1000 levels deep"},
		{"quantifiers beyond", invariant(strings.Repeat("exists p: ", 5000) + "true"), "expression or effects nested more than 1000 levels deep"},
		{"chain within", invariant("x[0]" + strings.Repeat(" + 1", 995) + " > 0"), ""},
		{"chain beyond", invariant("x[0]" + strings.Repeat(" + 1", 1_000_000) + " > 0"), "fuzz.ring:4:14: expression nested more than 1000 levels deep"},
		{"conjunction beyond", invariant("true" + strings.Repeat(" && true", 5000)), "fuzz.ring:4:14: expression nested more than 1000 levels deep"},
		{"effects within", action(nestedIfs(900)), ""},
		{"effects beyond", action(nestedIfs(100_000)), "expression or effects nested more than 1000 levels deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("fuzz.ring", []byte(tc.src))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatal("no error")
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q, want %q", err, tc.wantErr)
			}
			if err != nil {
				if e, ok := AsError(err); !ok || !e.Pos.IsValid() {
					t.Fatalf("%v is not an *Error with a position", err)
				}
			}
		})
	}
}

// TestHyphenatedWords parses a claim's and a check's hyphenated words
// (leads-to, weak-action), keeping the position of the first name.
func TestHyphenatedWords(t *testing.T) {
	src := "spec s\ntopology ring(3)\ncheck safety, leads-to\nclaim leads-to holds fairness strong-action with n = 3\n"
	f, err := Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checks := f.Decls[2].(*ChecksDecl)
	if got := checks.Properties[1]; got.Name != "leads-to" || got.Pos != (Pos{3, 15}) {
		t.Errorf("check's second property %q at %v", got.Name, got.Pos)
	}
	claim := f.Decls[3].(*ClaimDecl)
	if claim.Property.Name != "leads-to" || claim.Fairness.Name != "strong-action" || claim.Fairness.Pos != (Pos{4, 31}) || len(claim.Params) != 1 {
		t.Errorf("claim %q fairness %q at %v, %d parameters", claim.Property.Name, claim.Fairness.Name, claim.Fairness.Pos, len(claim.Params))
	}
	for _, bad := range []string{"fairness weak- action", "fairness weak -action"} {
		_, err := Parse("s.ring", []byte("spec s\nclaim safety holds "+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "s.ring:2:") {
			t.Errorf("%s: error %v", bad, err)
		}
	}
}

// TestLineBreaks parses one source with each kind of line break: \n,
// \r\n and \r alone each end a line, in code, in a comment and before an
// unterminated string, so that a problem is reported on its own line.
func TestLineBreaks(t *testing.T) {
	lines := []string{"spec s // a comment", "# another", "topology ring(3)", "var x: 0..2", "process all { action a: x == 0 x := 1 }"}
	unterminated := []string{"spec s", "source \"cut", "topology ring(3)"}
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		name := strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(nl)
		t.Run(name, func(t *testing.T) {
			_, err := Parse("s.ring", []byte(strings.Join(lines, nl)+nl))
			if want := "s.ring:5:32: "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %v, want an error at %s", err, want)
			}
			_, err = Parse("s.ring", []byte(strings.Join(unterminated, nl)+nl))
			if want := "s.ring:2:8: string not terminated"; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %v, want %s", err, want)
			}
		})
	}
}

// TestBoundLinksAndStartFile parses a bound with its rounds, links with
// their enlarged parameters and fill, found out-of-reach, and a claim
// from a start file, each with its place.
func TestBoundLinksAndStartFile(t *testing.T) {
	src := "spec s\n" +
		"bound \"4n rounds\" rounds 4 * n\n" +
		"links reliable enlarge Cmax = 32, n = 3 fill Cap\n" +
		"claim convergence holds found out-of-reach from all\n" +
		"claim convergence holds found violated from \"kept/nc.json\" fairness strong with n = 3 \"§3\"\n"
	f, err := Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b := f.Decls[1].(*BoundDecl)
	if b.Text != "4n rounds" || b.Rounds == nil || b.Rounds.ExprPos() != (Pos{2, 26}) {
		t.Errorf("bound %q, rounds %v", b.Text, b.Rounds)
	}
	l := f.Decls[2].(*LinksDecl)
	if l.Kind.Name != "reliable" || len(l.Enlarge) != 2 || l.Enlarge[1].Name.Name != "n" || l.Fill == nil || l.Fill.ExprPos() != (Pos{3, 46}) {
		t.Errorf("links %q, %d enlarged, fill %v", l.Kind.Name, len(l.Enlarge), l.Fill)
	}
	oor := f.Decls[3].(*ClaimDecl)
	if oor.Found.Name != "out-of-reach" || oor.From.Name != "all" || oor.StartFile != "" {
		t.Errorf("claim found %q from %v start %q", oor.Found.Name, oor.From, oor.StartFile)
	}
	st := f.Decls[4].(*ClaimDecl)
	if st.StartFile != "kept/nc.json" || st.StartPos != (Pos{5, 45}) || st.From != nil || st.Fairness.Name != "strong" || st.Source != "§3" {
		t.Errorf("claim from %q at %v, from %v, fairness %v, source %q", st.StartFile, st.StartPos, st.From, st.Fairness, st.Source)
	}
	// With neither rounds nor enlarge nor fill, each is nil.
	f, err = Parse("s.ring", []byte("spec s\nbound \"n\"\nlinks reliable\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := f.Decls[1].(*BoundDecl); b.Rounds != nil {
		t.Errorf("a bound without rounds has rounds %v", b.Rounds)
	}
	if l := f.Decls[2].(*LinksDecl); l.Enlarge != nil || l.Fill != nil {
		t.Errorf("links reliable alone: enlarge %v fill %v", l.Enlarge, l.Fill)
	}
}
