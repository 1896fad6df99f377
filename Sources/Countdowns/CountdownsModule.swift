/// Placeholder until its issue lands; the layer must compile from the start.
enum CountdownsModule {}
