namespace sudoku {}
