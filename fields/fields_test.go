package fields_test

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/fields"
)

var flags = map[string]string{"From": "--from", "MaxDepth": "--max-depth", "Start.Index": "--start-state"}

func flagName(field string) string { return flags[field] }

func TestRender(t *testing.T) {
	tests := []struct {
		name        string
		err         *fields.Error
		plain, flag string
		fields      []string
	}{
		{"one field", fields.Errorf("{MaxDepth} must not be negative"),
			"MaxDepth must not be negative", "--max-depth must not be negative", []string{"MaxDepth"}},
		{"two fields and a value", fields.Errorf("{Start.Index} needs {From} %q", "given"),
			`Start.Index needs From "given"`, `--start-state needs --from "given"`, []string{"Start.Index", "From"}},
		{"a brace in a value is text", fields.Errorf("{From} %q is unknown", "{MaxDepth}"),
			`From "{MaxDepth}" is unknown`, `--from "{MaxDepth}" is unknown`, []string{"From"}},
		{"an unnamed field keeps its name", fields.Errorf("{Workers} must be at least 1"),
			"Workers must be at least 1", "Workers must be at least 1", []string{"Workers"}},
		{"a nested error keeps its fields", fields.Errorf("{Properties}: %v", fields.Errorf("{From} all only")),
			"Properties: From all only", "Properties: --from all only", []string{"Properties", "From"}},
		{"a field named twice is listed once", fields.Errorf("{From} or {From}"),
			"From or From", "--from or --from", []string{"From"}},
		{"an unclosed brace is text", fields.Errorf("{{ and {From"),
			"{ and {From", "{ and {From", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.plain {
				t.Errorf("Error() = %q, want %q", got, tt.plain)
			}
			if got := tt.err.Render(flagName); got != tt.flag {
				t.Errorf("Render(flags) = %q, want %q", got, tt.flag)
			}
			if got := tt.err.Fields(); !slices.Equal(got, tt.fields) {
				t.Errorf("Fields() = %q, want %q", got, tt.fields)
			}
		})
	}
}

func TestRename(t *testing.T) {
	inner := fields.Errorf("{Search.MaxDepth} bounds {From}")
	outer := inner.Rename(func(f string) string { return strings.TrimPrefix(f, "Search.") })
	if got, want := outer.Render(flagName), "--max-depth bounds --from"; got != want {
		t.Errorf("renamed: %q, want %q", got, want)
	}
	if got, want := inner.Error(), "Search.MaxDepth bounds From"; got != want {
		t.Errorf("the original changed: %q, want %q", got, want)
	}
}

func TestWrappedErrors(t *testing.T) {
	err := fields.Errorf("{Start.Trace}: %v", fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is does not see the wrapped error")
	}
	nested := fields.Errorf("{From}: %v", err)
	if !errors.Is(nested, fs.ErrNotExist) {
		t.Error("errors.Is does not see through a nested field error")
	}
	var fe *fields.Error
	if !errors.As(error(nested), &fe) || fe != nested {
		t.Error("errors.As does not find the field error")
	}
}
