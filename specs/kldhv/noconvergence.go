package kldhv

import (
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// NoConvergence returns, for a system built with n=3, ℓ=K=2, MaxSeq=20
// and the default channel capacity, a configuration from which the
// paper's protocol (fix=0, and fix=2) never reaches L: every process
// requests two units and the tokens they hold add up to four (T_h = 2, 1,
// 1) while Root's controller counts two (C_e = 1, and the one disabled
// token the Collect on its link brings back), so Root neither disables nor
// replenishes; every execution, fair even under strong fairness, circles
// through 210 configurations outside L, every process starving. 'ringcheck
// rounds kl-dhv -p MaxSeq=20' found it (run 7400 of seed 1 ends in its
// cycle); testdata/no-convergence.json holds the same configuration for
// 'check --start' and the regression manifest.
func NoConvergence(sys *model.System) (*model.State, error) {
	proc := func(id int, state string, th, td, seq, order int) model.ProcessView {
		return model.ProcessView{ID: id, Vars: []model.Value{
			{Name: "STATE", Text: state, Enum: true},
			{Name: "NEED", Int: 2}, {Name: "Th", Int: th}, {Name: "Td", Int: td},
			{Name: "MySeq", Int: seq}, {Name: "MyOrder", Int: order},
		}}
	}
	root := proc(0, "Request", 2, 1, 3, 0)
	root.Vars = append(root.Vars,
		model.Value{Name: "Ce", Int: 1}, model.Value{Name: "Cf", Int: 0},
		model.Value{Name: "MyTc", Int: 0}, model.Value{Name: "MyTa", Int: 0})
	field := func(name string, x int) model.Value { return model.Value{Name: name, Int: x} }
	snap := model.Snapshot{
		Processes: []model.ProcessView{root, proc(1, "Request", 1, 1, 2, 1), proc(2, "Request", 1, 2, 2, 0)},
		Channels: []model.ChannelView{
			{From: 0, To: 1, Messages: []model.MessageView{
				{Type: "Allocate", Fields: []model.Value{field("ta", 1), field("order", 0)}},
				{Type: "Collect", Fields: []model.Value{field("tc", 0)}},
				{Type: "CToken", Fields: []model.Value{field("seq", 3)}},
			}},
			{From: 1, To: 2},
			{From: 2, To: 0},
		},
	}
	st, err := sys.Encode(snap)
	if err != nil {
		return nil, fmt.Errorf("kl-dhv: the configuration that does not converge needs n=3, ℓ=K=2, MaxSeq ≥ 3: %w", err)
	}
	return st, nil
}
