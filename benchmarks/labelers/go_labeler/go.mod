module golabeler

go 1.19
