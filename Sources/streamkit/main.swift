print("streamkit")
