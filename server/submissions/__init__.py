"""What a bot author uploads, checked before anything is stored: the manifest, the archive, the names."""
