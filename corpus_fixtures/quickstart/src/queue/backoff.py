def backoff(attempt):
    return min(600, 2 ** attempt)
