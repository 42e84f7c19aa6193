print("httpser")
