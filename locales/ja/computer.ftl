# computer
