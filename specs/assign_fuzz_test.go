package specs

import (
	"strconv"
	"testing"
)

// FuzzParseAssignment: ParseAssignment never panics; what it accepts has a
// non-empty name, and name=value formatted back parses to the same pair.
func FuzzParseAssignment(f *testing.F) {
	for _, s := range []string{
		"n=5", "K=64", " n = 5 ", "n=", "=5", "n", "", "n=x", "n=5=6", "n=-3", "n=+3",
		"n=0x10", "n=99999999999999999999", "Cmax=0", "a b=1", "\tn\t=\t7\t", "ℓ=2", "n==1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		name, value, err := ParseAssignment(arg)
		if err != nil {
			if name != "" || value != 0 {
				t.Fatalf("%q: error %v with name %q value %d", arg, err, name, value)
			}
			return
		}
		if name == "" {
			t.Fatalf("%q: accepted with an empty name", arg)
		}
		again := name + "=" + strconv.Itoa(value)
		name2, value2, err := ParseAssignment(again)
		if err != nil {
			t.Fatalf("%q parsed as %q=%d, but %q does not parse: %v", arg, name, value, again, err)
		}
		if name2 != name || value2 != value {
			t.Fatalf("%q parsed as %q=%d, but %q parses as %q=%d", arg, name, value, again, name2, value2)
		}
	})
}
