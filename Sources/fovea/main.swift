print("fovea")
