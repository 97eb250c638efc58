package lang_test

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
)

// TestNestingWithinTheLimit builds files whose expressions and effects
// nest close to the parser's limit: the checker and the compiler, which
// descend them recursively, take them, and the deepest beyond it is
// refused with its place rather than crash.
func TestNestingWithinTheLimit(t *testing.T) {
	const head = "spec s\ntopology ring(3)\nvar x: 0..2\n"
	tests := []struct {
		name, src string
		wantErr   string
	}{
		{"parentheses", head + "process all { action a: x == 0 -> x := 1 }\ninvariant i: " + strings.Repeat("(", 990) + "x[0] >= 0" + strings.Repeat(")", 990) + "\n", ""},
		{"chain", head + "process all { action a: x == 0 -> x := 1 }\ninvariant i: x[0]" + strings.Repeat(" + x[1]", 990) + " >= 0\n", ""},
		{"effects", head + "process all { action a: x == 0 -> " + strings.Repeat("if x[pred] == 0 { ", 900) + "x := 1" + strings.Repeat(" }", 900) + " }\n", ""},
		{"parentheses beyond", head + "invariant i: " + strings.Repeat("(", 2_000_000) + "\n", "d.ring:4:1014: expression or effects nested more than 1000 levels deep"},
		{"minus beyond", head + "invariant i: " + strings.Repeat("-", 3_000_000) + "1 == 0\n", "d.ring:4:1013: expression or effects nested more than 1000 levels deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse("d.ring", []byte(tc.src))
			if err == nil {
				_, err = f.Build(nil)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Fatalf("error %v, want %s", err, tc.wantErr)
			}
		})
	}
}
