def allow(tenant):
    return True
