"""The ground floor: worker processes with limits (processes), progress bars and rates (progress),
where computed things are cached (cache). Nothing here imports the layers above. (Named ``ground``,
not ``runtime``: "runtime" is what runs a model, ``seamcut.embed.RUNTIMES``.)"""
