package model

import (
	"fmt"
	"strconv"
)

// Domain is the finite set of values a variable or a message field may hold:
// either the integers Min..Max (inclusive) or an enumeration of labels, whose
// values are 0..len(Labels)-1.
type Domain struct {
	Min, Max int
	Labels   []string
}

// IntRange returns the integer domain min..max, inclusive.
func IntRange(min, max int) Domain { return Domain{Min: min, Max: max} }

// Enum returns an enumerated domain whose values are the indices of labels.
func Enum(labels ...string) Domain {
	return Domain{Min: 0, Max: len(labels) - 1, Labels: append([]string(nil), labels...)}
}

// Bool is the enumerated domain {false, true}.
func Bool() Domain { return Enum("false", "true") }

// Size is the number of values in the domain.
func (d Domain) Size() int { return d.Max - d.Min + 1 }

// Contains reports whether v is a value of the domain.
func (d Domain) Contains(v int) bool { return v >= d.Min && v <= d.Max }

// IsEnum reports whether the domain is an enumeration.
func (d Domain) IsEnum() bool { return d.Labels != nil }

// Format renders v: its label for an enumeration, its decimal form otherwise.
func (d Domain) Format(v int) string {
	if d.Labels != nil && v >= 0 && v < len(d.Labels) {
		return d.Labels[v]
	}
	return strconv.Itoa(v)
}

// Parse is the inverse of Format.
func (d Domain) Parse(s string) (int, error) {
	for i, l := range d.Labels {
		if l == s {
			return i, nil
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || !d.Contains(v) {
		return 0, fmt.Errorf("%q is not a value of %s", s, d)
	}
	return v, nil
}

// String describes the domain, as "0..4" or "{Out,Request,In}".
func (d Domain) String() string {
	if d.Labels != nil {
		s := "{"
		for i, l := range d.Labels {
			if i > 0 {
				s += ","
			}
			s += l
		}
		return s + "}"
	}
	return fmt.Sprintf("%d..%d", d.Min, d.Max)
}

func (d Domain) validate() error {
	if d.Max < d.Min {
		return fmt.Errorf("empty domain %d..%d", d.Min, d.Max)
	}
	if d.Size() > 1<<31-1 {
		return fmt.Errorf("domain %s is too large", d)
	}
	return nil
}

// Var declares a variable of a process or a field of a message type.
type Var struct {
	Name   string
	Domain Domain
}
