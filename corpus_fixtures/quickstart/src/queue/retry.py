def retry(attempt):
    return attempt + 1
