package syntax

import "testing"

// TestSequentialBlockSyntax parses do { ... } and let (of a local or a
// local array, whose type is required): ';' separates
// the effects of a block and of the blocks nested in it, a ',' there is
// reported, and do and let remain names where no block or local follows.
func TestSequentialBlockSyntax(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..2\nprocess all { action a: true -> "
	for _, tc := range []struct {
		name, effects, err string
		stmts              int // the action's effects, when it parses
		body               int // the first effect's, a block
	}{
		{"a block", "do { let t := x; x := t; }", "", 1, 2},
		{"nested blocks take ';'", "do { if x == 0 { x := 1; x := 2 } else { skip }; for q in 0..1 { x := q; x := x } }, x := 0", "", 2, 2},
		{"a ',' in a block", "do { x := 1, x := 2 }", "s.ring:4:44: the effects of do run in order: separate them by ';', not ','", 0, 0},
		{"a ',' in a nested block", "do { if true { x := 1, x := 2 } }", "s.ring:4:54: the effects of do run in order: separate them by ';', not ','", 0, 0},
		{"a missing ';'", "do { x := 1 x := 2 }", "s.ring:4:45: expected ';' or '}' after an effect in do, found \"x\"", 0, 0},
		{"a local's type", "do { let t: 0..4 := x }", "", 1, 1},
		{"do and let as names", "do := 1, let := 2", "", 2, 0},
		{"local arrays", "do { let t[0..2]: 0..4; let g[0..1][1..2]: bool := true; t[1] := 2; g[0][1] := t[1] == 2 }", "", 1, 4},
		{"a local array without a type", "do { let t[0..2] := 0 }", "s.ring:4:50: expected ':' after the local array's index range (let t[0..3]: TYPE), found ':='", 0, 0},
		{"a local array's unclosed index", "do { let t[0..2: bool }", "s.ring:4:48: expected ']' after the local array's index range, found ':'", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("s.ring", []byte(head+tc.effects+" }\n"))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			a := f.Decls[len(f.Decls)-1].(*ProcessDecl).Actions[0]
			if len(a.Effects) != tc.stmts {
				t.Fatalf("%d effects, want %d", len(a.Effects), tc.stmts)
			}
			if tc.body > 0 {
				s, ok := a.Effects[0].(*SeqStmt)
				if !ok || len(s.Body) != tc.body {
					t.Fatalf("first effect %#v, want a block of %d", a.Effects[0], tc.body)
				}
			}
		})
	}
}
