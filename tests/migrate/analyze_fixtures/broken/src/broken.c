/* Does not parse: the run reports it and goes on. */
int broken(void)
{
    return 1 +;
}
