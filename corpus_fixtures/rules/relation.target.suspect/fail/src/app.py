print('the application')
