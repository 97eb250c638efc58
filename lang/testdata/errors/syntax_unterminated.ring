spec broken "a summary that never ends
