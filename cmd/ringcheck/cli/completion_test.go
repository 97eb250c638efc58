package cli

import (
	"io"
	"runtime/debug"
	"slices"
	"sort"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/runs"
)

func TestCompleteCommaList(t *testing.T) {
	items := []cobra.Completion{
		cobra.CompletionWithDesc("safety", "s"),
		cobra.CompletionWithDesc("deadlock", "d"),
		cobra.CompletionWithDesc("starvation", "t"),
		"closure",
	}
	for _, tc := range []struct {
		typed string
		want  []cobra.Completion
	}{
		// The first item keeps its description.
		{"", []cobra.Completion{"safety\ts", "deadlock\td", "starvation\tt", "closure"}},
		{"s", []cobra.Completion{"safety\ts", "starvation\tt"}},
		{"dea", []cobra.Completion{"deadlock\td"}},
		{"safety", []cobra.Completion{"safety\ts"}},
		{"x", nil},
		// After a comma: the list as typed, then each item not in it yet,
		// with no description.
		{"safety,", []cobra.Completion{"safety,deadlock", "safety,starvation", "safety,closure"}},
		{"safety,dea", []cobra.Completion{"safety,deadlock"}},
		{"safety,deadlock,s", []cobra.Completion{"safety,deadlock,starvation"}},
		{"safety,deadlock,starvation,closure,", nil},
		{"safety,safety,", []cobra.Completion{"safety,safety,deadlock", "safety,safety,starvation", "safety,safety,closure"}},
		// An item that is not one of the list's still counts as typed.
		{"bogus,c", []cobra.Completion{"bogus,closure"}},
		{",", []cobra.Completion{",safety", ",deadlock", ",starvation", ",closure"}},
	} {
		got := completeCommaList(tc.typed, items)
		if !slices.Equal(got, tc.want) {
			t.Errorf("completeCommaList(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

// TestEveryArgumentAndFlagCompletes walks the command tree: every
// placeholder of a Use line has a completion in argCompletions, and every
// flag that takes a value has a completion function, so that adding a
// command or a flag means deciding how it completes.
func TestEveryArgumentAndFlagCompletes(t *testing.T) {
	root := newRootCmd(io.Discard, io.Discard)
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, ph := range usePlaceholders(cmd) {
			if _, ok := argCompletions[ph]; !ok {
				t.Errorf("%s: argCompletions has no entry for %s", cmd.CommandPath(), ph)
			}
		}
		if !cmd.HasSubCommands() && cmd.ValidArgsFunction == nil && len(cmd.ValidArgs) == 0 {
			t.Errorf("%s: no completion of its arguments", cmd.CommandPath())
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.NoOptDefVal != "" {
				return // a flag given without a value, as a bool
			}
			if _, ok := cmd.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%s --%s: no completion function (add one to flagCompletions)", cmd.CommandPath(), f.Name)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestCompletedValuesParse pins the completed values of the enumerated
// flags to what the commands accept.
func TestCompletedValuesParse(t *testing.T) {
	values := func(cs []cobra.Completion) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = choice(c)
		}
		return out
	}
	parsers := []struct {
		flag   string
		values []cobra.Completion
		parse  func(string) error
	}{
		{"--daemon", daemonValues, func(s string) error { _, err := model.ParseDaemon(s); return err }},
		{"--overflow", overflowValues, func(s string) error { _, err := model.ParseOverflow(s); return err }},
		{"--fairness", fairnessValues, func(s string) error { _, err := invariants.ParseFairness(s); return err }},
		{"--from", fromValues, func(s string) error { _, err := invariants.ParseFrom(s); return err }},
		{"--order", orderValues, func(s string) error { _, err := runs.ParseSweepOrder(s); return err }},
		{"--check", propertyValues, func(s string) error { return invariants.Implemented(invariants.Property(s)) }},
	}
	for _, p := range parsers {
		for _, v := range values(p.values) {
			if err := p.parse(v); err != nil {
				t.Errorf("%s %s: %v", p.flag, v, err)
			}
		}
	}
	var known []string
	for _, p := range invariants.KnownProperties() {
		known = append(known, string(p))
	}
	if got := values(propertyValues); !slices.Equal(got, known) {
		t.Errorf("--check completes %q, want the known properties %q", got, known)
	}
	formats := values(traceFormatValues)
	sort.Strings(formats)
	var writers []string
	for f := range traceWriters {
		writers = append(writers, f)
	}
	sort.Strings(writers)
	if !slices.Equal(formats, writers) {
		t.Errorf("--trace-format completes %q, want the trace writers %q", formats, writers)
	}
}

func TestBuildVersion(t *testing.T) {
	vcs := func(rev, time, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-compiler", Value: "gc"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: time},
			{Key: "vcs.modified", Value: modified},
		}
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "(devel)"},
		{"no version control", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
		{"empty version", &debug.BuildInfo{}, true, "(devel)"},
		{"released", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{"work tree, clean",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123456789abcdef01234567", "2025-03-01T10:00:00Z", "false")},
			true, "(devel) 0123456789ab 2025-03-01T10:00:00Z"},
		{"work tree, modified",
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20250301100000-0123456789ab+dirty"}, Settings: vcs("0123456789abcdef0123456789abcdef01234567", "2025-03-01T10:00:00Z", "true")},
			true, "v0.0.0-20250301100000-0123456789ab+dirty 0123456789ab 2025-03-01T10:00:00Z modified"},
		{"short revision, no time",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}},
			true, "(devel) abc"},
	} {
		if got := buildVersion(tc.info, tc.ok); got != tc.want {
			t.Errorf("%s: buildVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}
