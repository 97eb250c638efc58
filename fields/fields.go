// Package fields builds errors about the named fields of a request, whose
// messages each caller renders in its own words: a library caller sees the
// field names ("MaxDepth must not be negative"), the command line its flag
// names ("--max-depth must not be negative"), a manifest its keys.
//
// A message is a template in which {Name} stands for the field Name (a
// dotted path such as Start.Index) and {{ for a literal brace.
package fields

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Error is an error about some fields of a request.
type Error struct {
	template string
	wrapped  []error
}

// Errorf formats an Error. format may name fields as {Name}; the arguments
// are formatted as fmt.Sprintf does, except that an *Error argument
// contributes its template (so its fields stay fields) and any other
// argument is escaped (a brace in a value is never read as a field). Error
// arguments are kept for errors.Is and errors.As.
func Errorf(format string, args ...any) *Error {
	e := &Error{}
	wrapped := make([]any, len(args))
	for i, a := range args {
		var fe *Error
		if err, ok := a.(error); ok {
			if errors.As(err, &fe) && fe == err {
				wrapped[i] = template(fe.template)
				e.wrapped = append(e.wrapped, fe.wrapped...)
				continue
			}
			e.wrapped = append(e.wrapped, err)
		}
		wrapped[i] = escaped{a}
	}
	e.template = fmt.Sprintf(format, wrapped...)
	return e
}

// Error renders the message with the fields' own names.
func (e *Error) Error() string { return e.Render(nil) }

// Unwrap returns the errors given as arguments.
func (e *Error) Unwrap() []error { return e.wrapped }

// Fields lists the fields the message names, in order, each once.
func (e *Error) Fields() []string {
	var out []string
	e.walk(func(field string) string {
		for _, f := range out {
			if f == field {
				return ""
			}
		}
		out = append(out, field)
		return ""
	})
	return out
}

// Render returns the message with each field named by name(field); a nil
// name, or one that returns "", leaves the field's own name.
func (e *Error) Render(name func(field string) string) string {
	return e.walk(func(field string) string {
		if name != nil {
			if s := name(field); s != "" {
				return s
			}
		}
		return field
	})
}

// Rename returns the error with every field f renamed to rename(f) (f
// itself when rename returns ""): how a caller that wraps a request of its
// own shape maps an inner request's fields onto its own.
func (e *Error) Rename(rename func(field string) string) *Error {
	out := &Error{wrapped: e.wrapped}
	out.template = e.walk(func(field string) string {
		if s := rename(field); s != "" {
			field = s
		}
		return "{" + field + "}"
	})
	return out
}

// walk renders the template, replacing each {field} by sub(field) and each
// {{ by a brace.
func (e *Error) walk(sub func(field string) string) string {
	var b strings.Builder
	t := e.template
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		t = t[i+1:]
		if strings.HasPrefix(t, "{") {
			b.WriteByte('{')
			t = t[1:]
			continue
		}
		j := strings.IndexByte(t, '}')
		if j < 0 {
			b.WriteByte('{')
			continue
		}
		b.WriteString(sub(t[:j]))
		t = t[j+1:]
	}
}

// template is an already-escaped message fragment, inserted as it is.
type template string

func (t template) Format(f fmt.State, verb rune) { io.WriteString(f, string(t)) }

// escaped formats its value as fmt would, doubling every opening brace.
type escaped struct{ v any }

func (x escaped) Format(f fmt.State, verb rune) {
	s := fmt.Sprintf(fmt.FormatString(f, verb), x.v)
	io.WriteString(f, strings.ReplaceAll(s, "{", "{{"))
}
