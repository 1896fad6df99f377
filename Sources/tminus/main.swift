print("tminus")
