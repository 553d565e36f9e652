def accept(batch):
    return len(batch) <= 1000
