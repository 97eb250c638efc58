package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// Code is Go code generated from one instance (package lang/gogen): the
// bodies of guards, effects and predicates, which replace the closures
// System builds for them. Everything around a body (choice labels,
// liveness, first-enabled processes, the fault latch of predicates, the
// initial configuration) is the closures' compiler's, as in System. A nil
// entry keeps the closures of what it stands for.
type Code struct {
	// Instance is the Fingerprint of the instance the code was generated
	// from; SystemWith refuses code of another instance.
	Instance string
	// Actions holds the code of each action, by index in ir.Spec.Actions
	// (nil or shorter: the closures of the actions past its end).
	Actions []ActionCode
	// Invariants holds the predicates of ir.Spec.Invariants by index (nil
	// entry: the closures').
	Invariants []PredicateCode
	// Legitimate, ValidEnd, Start, ClosureFrom and InitSet are the
	// legitimacy, valid_end, start, closure from and init predicates
	// (nil: the closures').
	Legitimate, ValidEnd, Start, ClosureFrom, InitSet PredicateCode
	// ProcessPredicates holds, by index in ir.Spec.ProcessPredicates,
	// the predicate of each process (len N; nil or shorter: the
	// closures').
	ProcessPredicates [][]PredicateCode
	// Prepare, when set, is called with each system built from the code,
	// before a guard, an effect or a predicate runs, and with the path of
	// the spec's file, which the errors of faults name: it computes the
	// tables the code reads (the letters of messages, their fields) and
	// checks that the system is laid out as the code assumes.
	Prepare func(sys *model.System, file string) error
}

// PredicateCode is the code of a state predicate: given the function its
// faults are reported to (a division by zero, an overflow: the first
// one is kept, as the closures' predicates keep theirs), it returns the
// predicate, which holds where its evaluation fails. A predicate that
// cannot fail ignores the function.
type PredicateCode func(fail func(error)) func(*model.State) bool

// ActionCode is the code of one action, per process: index p holds
// process p's (len N; a nil slice or a nil entry keeps the closures of
// that process). A process's Guard is the whole model.Action.Guard
// (receive's head test included) and its Effect the whole Effect
// (receive included), its argument the alternative; Allows is set where
// the action's guard depends on its choice (model.Action.Allows).
type ActionCode struct {
	Guard  []func(*model.Ctx) bool
	Allows []func(*model.Ctx, int) bool
	Effect []func(*model.Ctx, int)
}

// at returns process p's guard, allows and effect, and whether the code
// has them.
func (a *ActionCode) at(p int) (func(*model.Ctx) bool, func(*model.Ctx, int) bool, func(*model.Ctx, int), bool) {
	if p >= len(a.Guard) || a.Guard[p] == nil {
		return nil, nil, nil, false
	}
	var allows func(*model.Ctx, int) bool
	if p < len(a.Allows) {
		allows = a.Allows[p]
	}
	var eff func(*model.Ctx, int)
	if p < len(a.Effect) {
		eff = a.Effect[p]
	}
	return a.Guard[p], allows, eff, true
}

// SystemWith builds the model of spec as System does, with the guards,
// effects and predicates code has in place of the closures. It refuses
// code generated from another instance (code.Instance is not
// Fingerprint(spec)).
func SystemWith(spec *ir.Spec, code *Code) (*model.System, error) {
	if code == nil {
		return System(spec)
	}
	if fp := Fingerprint(spec); code.Instance != fp {
		return nil, fmt.Errorf("spec %s: the generated code is of instance %s, not of this one (%s): regenerate it", spec.Name, short(code.Instance), short(fp))
	}
	if len(code.Actions) > len(spec.Actions) || len(code.Invariants) > len(spec.Invariants) {
		return nil, fmt.Errorf("spec %s: the generated code has %d actions and %d invariants, the instance %d and %d", spec.Name, len(code.Actions), len(code.Invariants), len(spec.Actions), len(spec.Invariants))
	}
	c := newCompiler(spec)
	c.code = code
	return c.build()
}

// short is a fingerprint's first 12 digits, for a message.
func short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// prepareCode runs the code's Prepare on sys.
func (c *compiler) prepareCode(sys *model.System) {
	if c.code == nil || c.code.Prepare == nil || c.codeErr != nil {
		return
	}
	if err := c.code.Prepare(sys, c.spec.File); err != nil {
		c.codeErr = fmt.Errorf("spec %s: the generated code: %w", c.spec.Name, err)
	}
}

// addAction adds act, compiled from spec action index i, to the builder:
// to each of its processes with the code's guard and effect where it has
// them, to all of them at once otherwise.
func (c *compiler) addAction(i int, a *ir.Action, act model.Action) error {
	var ac *ActionCode
	if c.code != nil && i < len(c.code.Actions) {
		ac = &c.code.Actions[i]
	}
	generated := false
	if ac != nil {
		for _, p := range a.Procs {
			if _, _, _, ok := ac.at(p); ok {
				generated = true
			}
		}
	}
	if !generated {
		if c.faults != nil {
			act = c.faults.failing(act)
		}
		c.b.Action(act, a.Procs...)
		return nil
	}
	for _, p := range a.Procs {
		ap := act
		if g, allows, eff, ok := ac.at(p); ok {
			if eff == nil || (allows == nil) != (act.Allows == nil) {
				return fmt.Errorf("spec %s: the generated code of action %s (process %d) has a guard but not the effect or the allows it needs", c.spec.Name, a.Name, p)
			}
			ap.Guard, ap.Allows, ap.Effect = g, allows, eff
		}
		if c.faults != nil {
			ap = c.faults.failing(ap)
		}
		c.b.Action(ap, p)
	}
	return nil
}

// predicateCode returns the code's predicate in place of mp's Holds,
// where it has one, its faults kept by the predicates' latch.
func (c *compiler) predicateCode(mp model.Predicate, f PredicateCode) model.Predicate {
	if f != nil {
		mp.Holds = f(c.recordFault)
	}
	return mp
}

// recordFault keeps the fault of a generated predicate in the
// predicates' latch. The generator checks for faults where compile does
// (ir.Bounds, a divisor that may be 0), so that the latch exists when a
// generated predicate may fail.
func (c *compiler) recordFault(err error) {
	if c.faults != nil {
		c.faults.record(err)
	}
}

// processPredicateCode returns the code's predicates of process
// predicate i in place of mp's Holds, where it has them all.
func (c *compiler) processPredicateCode(mp model.ProcessPredicate, i int) model.ProcessPredicate {
	if c.code == nil || i >= len(c.code.ProcessPredicates) || len(c.code.ProcessPredicates[i]) != c.n {
		return mp
	}
	per := make([]func(*model.State) bool, c.n)
	for p, f := range c.code.ProcessPredicates[i] {
		if f == nil {
			return mp
		}
		per[p] = f(c.recordFault)
	}
	mp.Holds = func(s *model.State, p int) bool { return per[p](s) }
	return mp
}

// Fingerprint returns a stable hash of the instance spec: of every
// field of the IR that guards, effects and predicates depend on (names,
// types, the parameters' values, N and the topology, variables,
// messages, channels, actions with their expressions and the positions
// their faults name), and not of its documentation, claims or the path
// of its file. Generated code carries the fingerprint of its instance
// (Code.Instance): the same file with the same parameters has the same
// fingerprint wherever it is read from, and any edit that changes what
// the code computes changes it.
func Fingerprint(spec *ir.Spec) string {
	w := &fingerprinter{seen: map[uintptr]int{}}
	w.value(reflect.ValueOf(spec))
	sum := sha256.Sum256([]byte(w.b.String()))
	return hex.EncodeToString(sum[:])
}

// fingerprinter writes a deterministic text of an IR value: structs
// field by field, slices in order, maps by sorted key, a pointer seen
// before as a reference to its first visit.
type fingerprinter struct {
	b    strings.Builder
	seen map[uintptr]int
}

// skipped are the fields of the IR that no generated code depends on.
var skipped = map[string]bool{
	"Summary": true, "Source": true, "File": true, "Doc": true, "Claims": true,
	"Bound": true, "Links": true, "Checks": true, "Params": true,
	"Symmetry": true,
}

func (w *fingerprinter) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			w.b.WriteString("nil ")
			return
		}
		if k, ok := w.seen[v.Pointer()]; ok {
			w.b.WriteString("ref" + strconv.Itoa(k) + " ")
			return
		}
		w.seen[v.Pointer()] = len(w.seen)
		w.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			w.b.WriteString("nil ")
			return
		}
		w.b.WriteString(v.Elem().Type().String() + ":")
		w.value(v.Elem())
	case reflect.Struct:
		t := v.Type()
		w.b.WriteString(t.String() + "{")
		for i := range t.NumField() {
			f := t.Field(i)
			if skipped[f.Name] || !f.IsExported() {
				continue
			}
			w.b.WriteString(f.Name + "=")
			w.value(v.Field(i))
		}
		w.b.WriteString("} ")
	case reflect.Slice, reflect.Array:
		w.b.WriteString("[")
		for i := range v.Len() {
			w.value(v.Index(i))
		}
		w.b.WriteString("] ")
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		w.b.WriteString("map[")
		for _, k := range keys {
			w.b.WriteString(fmt.Sprint(k) + ":")
			w.value(v.MapIndex(k))
		}
		w.b.WriteString("] ")
	case reflect.Func, reflect.Chan:
		// Nothing the IR's meaning depends on.
	default:
		w.b.WriteString(fmt.Sprint(v.Interface()) + " ")
	}
}

// Fault is the error of a fault found at pos of file as action runs:
// file:line:col: message, after "action NAME: " when action is not
// empty (a guard's fault; the expansion names the action of an
// effect's). Generated code and the closures make their faults with it.
func Fault(file string, pos syntax.Pos, action, format string, args ...any) error {
	var err error = &syntax.Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	if action != "" {
		err = fmt.Errorf("action %s: %w", action, err)
	}
	return err
}

// DivisionByZero is the error of a division by zero at pos of file in an
// action (whose guard does not name it).
func DivisionByZero(file string, pos syntax.Pos) error {
	return &syntax.Error{File: file, Pos: pos, Msg: "division by zero"}
}

// RepeatFault is the error of a repeat count n outside 0..MaxRepeat at
// pos of file, in an effect, or nil when n is within it.
func RepeatFault(file string, pos syntax.Pos, n int) error {
	return repeatCount(n, func(format string, args ...any) error {
		return Fault(file, pos, "", format, args...)
	})
}
