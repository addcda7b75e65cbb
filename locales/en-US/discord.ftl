# discord
