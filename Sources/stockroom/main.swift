print("stockroom")
