# export
