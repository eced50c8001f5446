from freecell.cli import main

main()
