def format_title(title: str) -> str:
    # TODO: handle titles longer than 80 characters
    return title.strip().title()
